package dev.zerolayer.router;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** router-service: the Anthropic/OpenAI-compatible gateway that decides, dispatches with bypass, and publishes one decision event per request. */
@SpringBootApplication
public class RouterApplication {

    /** Reactor Netty's setting for the number of I/O event loops. */
    static final String IO_WORKER_COUNT = "reactor.netty.ioWorkerCount";

    public static void main(String[] args) {
        oneEventLoopPerCore();
        SpringApplication.run(RouterApplication.class, args);
    }

    /**
     * One event loop per core unless {@code -Dreactor.netty.ioWorkerCount} says otherwise: Reactor Netty's default of
     * at least four put four busy loops on a two-core machine, each preempting the others.
     */
    static void oneEventLoopPerCore() {
        if (System.getProperty(IO_WORKER_COUNT) == null) {
            System.setProperty(IO_WORKER_COUNT, Integer.toString(Runtime.getRuntime().availableProcessors()));
        }
    }
}
