package dev.zerolayer.telemetry.health;

import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Every tick, once the topics are ready: staleness, heartbeats and due warm-up probes. */
public class HealthTicker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HealthTicker.class);

    private final HealthTracker tracker;
    private final WarmupProber prober;
    private final TopicGuard guard;
    private final Duration tick;
    private ScheduledExecutorService executor;

    public HealthTicker(HealthTracker tracker, WarmupProber prober, TopicGuard guard, Duration tick) {
        this.tracker = tracker;
        this.prober = prober;
        this.guard = guard;
        this.tick = tick;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "health-ticker");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::tickSafely, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tickSafely() {
        if (!guard.ready()) {
            return;
        }
        try {
            tracker.tick().forEach(prober::probe);
        } catch (RuntimeException e) {
            log.warn("health tick failed: {}", e.toString());
        }
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
