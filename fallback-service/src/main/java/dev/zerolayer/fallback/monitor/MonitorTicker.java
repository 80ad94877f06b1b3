package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackAlerting;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Every tick, once the topics are verified: evaluates the monitor under the active policy's alerting settings and
 * publishes the alerts that fired or resolved, in order; an alert that could not be sent is kept and sent first next
 * tick.
 */
public class MonitorTicker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MonitorTicker.class);

    private final FallbackMonitor monitor;
    private final Supplier<FallbackAlerting> alerting;
    private final Predicate<FallbackAlert> publisher;
    private final TopicGuard guard;
    private final Duration tick;
    private final MeterRegistry meters;
    private final Deque<FallbackAlert> unsent = new ArrayDeque<>();
    private ScheduledExecutorService executor;

    public MonitorTicker(FallbackMonitor monitor, Supplier<FallbackAlerting> alerting,
            Predicate<FallbackAlert> publisher, TopicGuard guard, Duration tick, MeterRegistry meters) {
        this.monitor = monitor;
        this.meters = meters;
        Gauge.builder("zerolayer.fallback.alerts.firing", monitor, FallbackMonitor::firingCount)
                .description("fallback-rate alerts firing now").register(meters);
        this.alerting = alerting;
        this.publisher = publisher;
        this.guard = guard;
        this.tick = tick;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fallback-monitor");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::tickSafely, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One evaluation and publication round (the scheduled task). */
    void tickSafely() {
        if (!guard.ready()) {
            return;
        }
        try {
            for (FallbackAlert alert : monitor.evaluate(alerting.get())) {
                Gauge.builder("zerolayer.fallback.alert.firing", monitor, m -> m.firing(alert.scope()) ? 1 : 0)
                        .description("1 while the fallback-rate alert of the scope is firing")
                        .tag("scope", alert.scope()).register(meters);
                unsent.addLast(alert);
            }
            while (!unsent.isEmpty() && publisher.test(unsent.peekFirst())) {
                FallbackAlert sent = unsent.pollFirst();
                log.info("fallback alert {} {}: rate {} over {} s (threshold {})", sent.scope(), sent.status(),
                        String.format(java.util.Locale.ROOT, "%.4f", sent.fallbackRate()), sent.windowSeconds(),
                        sent.threshold());
            }
        } catch (RuntimeException e) {
            log.warn("fallback monitor tick failed: {}", e.toString());
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
