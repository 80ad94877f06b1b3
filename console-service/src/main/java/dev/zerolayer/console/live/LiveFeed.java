package dev.zerolayer.console.live;

import dev.zerolayer.console.decisions.DecisionLog;
import dev.zerolayer.console.fleet.Fleet;
import dev.zerolayer.console.fleet.NodeRow;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Feeds the live events from the topics: each decision as read, alerts and policy as they change, the fleet at most
 * once a second when it changed, and the charts' buckets every five seconds; only while a page listens.
 */
public final class LiveFeed implements SmartLifecycle {

    private final LiveEvents events;
    private final Fleet fleet;
    private final DecisionLog decisions;
    private final CompactedView<FallbackAlert> alerts;
    private final CompactedView<FallbackPolicy> policy;
    private volatile Disposable ticks;
    private volatile List<NodeRow> lastFleet = List.of();

    public LiveFeed(LiveEvents events, Fleet fleet, DecisionLog decisions, CompactedView<FallbackAlert> alerts,
            CompactedView<FallbackPolicy> policy) {
        this.events = events;
        this.fleet = fleet;
        this.decisions = decisions;
        this.alerts = alerts;
        this.policy = policy;
    }

    @Override
    public void start() {
        decisions.onDecision(row -> {
            if (events.listeners() > 0) {
                events.emit("decision", row);
            }
        });
        alerts.onUpdate(alert -> events.emit("alert", AlertRow.of(alert)));
        policy.onUpdate(active -> events.emit("policy", PolicyRow.of(active)));
        Flux<Long> everySecond = Flux.interval(Duration.ofSeconds(1), Schedulers.single());
        ticks = everySecond.subscribe(tick -> {
            if (events.listeners() == 0) {
                return;
            }
            List<NodeRow> nodes = fleet.nodes();
            if (!Objects.equals(nodes, lastFleet) || tick % 10 == 0) {
                lastFleet = nodes;
                events.emit("fleet", Map.of("nodes", nodes));
            }
            if (tick % 5 == 0) {
                events.emit("series", decisions.series());
            }
        });
    }

    @Override
    public void stop() {
        Disposable running = ticks;
        if (running != null) {
            running.dispose();
        }
        ticks = null;
    }

    @Override
    public boolean isRunning() {
        return ticks != null;
    }
}
