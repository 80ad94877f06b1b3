package dev.zerolayer.platform.view;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Per compacted-topic view (tag {@code topic}): {@code zerolayer.view.staleness} = seconds since the view last changed
 * (since this binder was created while nothing has arrived), and {@code zerolayer.view.keys} = keys held.
 */
public class ViewMetrics implements MeterBinder {

    private final List<CompactedView<?>> views;
    private final Clock clock;
    private final Instant created;

    public ViewMetrics(List<CompactedView<?>> views, Clock clock) {
        this.views = List.copyOf(views);
        this.clock = clock;
        this.created = clock.instant();
    }

    /** Seconds since the view's last update, or since start when it has received nothing yet. */
    public double stalenessSeconds(CompactedView<?> view) {
        Instant last = view.lastUpdate().orElse(created);
        return Math.max(0, Duration.between(last, clock.instant()).toNanos() / 1e9);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (CompactedView<?> view : views) {
            Gauge.builder("zerolayer.view.staleness", view, this::stalenessSeconds).baseUnit("seconds")
                    .description("seconds since the compacted-topic view last changed (since start if never)")
                    .tag("topic", view.topic()).register(registry);
            Gauge.builder("zerolayer.view.keys", view, CompactedView::size)
                    .description("keys held by the compacted-topic view").tag("topic", view.topic())
                    .register(registry);
        }
    }
}
