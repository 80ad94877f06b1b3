package dev.zerolayer.telemetry.observation;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The router's observations from {@code router.decisions.v1}: requests served per node, and each served request's time
 * to first byte and chunk-interval variance for the node's passive diagnosis.
 */
public class RouterObservations implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final HealthTracker tracker;
    private final Map<String, LongAdder> servedByNode = new ConcurrentHashMap<>();

    public RouterObservations(EventReader reader, HealthTracker tracker) {
        this.reader = reader;
        this.tracker = tracker;
    }

    @Override
    public void accept(Message<byte[]> message) {
        RoutingDecision decision = reader.read(message, RoutingDecision.class);
        if (decision.node() != null) {
            servedByNode.computeIfAbsent(decision.node(), node -> new LongAdder()).increment();
        }
        tracker.onDecision(decision);
    }

    public long servedBy(String node) {
        LongAdder served = servedByNode.get(node);
        return served == null ? 0 : served.sum();
    }
}
