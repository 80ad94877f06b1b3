package dev.zerolayer.cache.nodes;

import dev.zerolayer.cache.session.SessionTracker;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The periodic clean-up of what every replica keeps: idle sessions are forgotten. (Estimates past their time-to-live
 * and the blocks of nodes DOWN past the grace period leave the index in the rounds of their partition's owner.)
 */
public class Maintenance implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);

    private final SessionTracker sessions;
    private final Clock clock;
    private final Duration interval;
    private ScheduledExecutorService executor;

    public Maintenance(SessionTracker sessions, Clock clock, Duration interval) {
        this.sessions = sessions;
        this.clock = clock;
        this.interval = interval;
    }

    /** One clean-up round. */
    public void run() {
        sessions.expireIdle(clock.instant());
    }

    private void runQuietly() {
        try {
            run();
        } catch (RuntimeException e) {
            log.warn("cache maintenance round failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cache-maintenance");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::runQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
