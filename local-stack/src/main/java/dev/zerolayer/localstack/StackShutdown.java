package dev.zerolayer.localstack;

import dev.zerolayer.localstack.kafka.LocalKafka;
import dev.zerolayer.localstack.process.ChildSupervisor;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/** Stops the services first (SIGTERM, 8 s grace, then SIGKILL) and the broker last, the whole stop within 10 s. */
final class StackShutdown implements Runnable {

    static final Duration CHILD_GRACE = Duration.ofSeconds(8);
    static final Duration STOP_BUDGET = Duration.ofSeconds(10);
    private static final Duration MIN_BROKER_STOP = Duration.ofMillis(500);
    private static final Duration MARGIN = Duration.ofMillis(300);

    private final ChildSupervisor supervisor;
    private final PrintStream err;
    private volatile LocalKafka kafka;

    StackShutdown(ChildSupervisor supervisor, PrintStream err) {
        this.supervisor = supervisor;
        this.err = err;
    }

    void broker(LocalKafka started) {
        this.kafka = started;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        int count = supervisor.children().size();
        if (count > 0) {
            err.println("zerolayer: stopping " + count + " service(s)");
        }
        List<String> killed = supervisor.stopAll(CHILD_GRACE);
        if (!killed.isEmpty()) {
            err.println("zerolayer: killed (no exit within " + CHILD_GRACE.toSeconds() + " s): " + killed);
        }
        LocalKafka broker = kafka;
        if (broker != null) {
            Duration left = STOP_BUDGET.minus(Duration.ofNanos(System.nanoTime() - start)).minus(MARGIN);
            if (!broker.stop(left.compareTo(MIN_BROKER_STOP) < 0 ? MIN_BROKER_STOP : left)) {
                err.println("zerolayer: the broker did not stop in time; exiting anyway");
            }
        }
        err.printf("zerolayer: stopped in %.1f s%n", (System.nanoTime() - start) / 1e9);
        err.flush();
    }
}
