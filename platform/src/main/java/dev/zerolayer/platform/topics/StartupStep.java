package dev.zerolayer.platform.topics;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A start-up step that needs the broker (reading a compacted topic back, say): run once on a daemon thread after the
 * topics are verified, retried after a failure at the {@link Backoff} pace, until it succeeds once or is stopped; the
 * last failure stays readable for the health endpoint.
 */
public final class StartupStep {

    private static final Logger log = LoggerFactory.getLogger(StartupStep.class);

    /** The work; a {@link RuntimeException} means "try again". */
    @FunctionalInterface
    public interface Work {
        void run() throws InterruptedException;
    }

    private final String name;
    private final TopicGuard guard;
    private final Work work;
    private final Duration longestPause;
    private volatile boolean running;
    private volatile boolean done;
    private volatile String problem;
    private Thread worker;

    /** @param name the thread's name and what the log calls the step */
    public StartupStep(String name, TopicGuard guard, Work work) {
        this(name, guard, work, Backoff.LONGEST_PAUSE);
    }

    /** @param longestPause where the pause between attempts stops growing */
    public StartupStep(String name, TopicGuard guard, Work work, Duration longestPause) {
        this.name = name;
        this.guard = guard;
        this.work = work;
        this.longestPause = longestPause;
    }

    public synchronized void start() {
        running = true;
        worker = new Thread(this::runUntilDone, name);
        worker.setDaemon(true);
        worker.start();
    }

    private void runUntilDone() {
        Backoff backoff = new Backoff(longestPause);
        while (running && !done) {
            try {
                guard.awaitReady();
                work.run();
                problem = null;
                done = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                problem = e.toString();
                Duration pause = backoff.next();
                log.warn("{} failed ({}); retrying in {} ms", name, e.toString(), pause.toMillis());
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    public synchronized void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** Whether the work succeeded once. */
    public boolean done() {
        return done;
    }

    /** Started and not stopped: the work's own loops go on while this holds. */
    public boolean isRunning() {
        return running;
    }

    /** The last failure, or null (none yet, or the step succeeded). */
    public String problem() {
        return problem;
    }
}
