package dev.zerolayer.telemetry.observation;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The router's observations from {@code router.decisions.v1}, read in batches (one event per request: per-record
 * delivery cost more than the observation): requests served per node, and each served request's time to first byte
 * and chunk-interval variance for the node's passive diagnosis; a record that is no valid decision is counted and
 * dead-lettered without stopping the rest of its batch.
 */
public class RouterObservations implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final HealthTracker tracker;
    private final Map<String, LongAdder> servedByNode = new ConcurrentHashMap<>();

    public RouterObservations(EventReader reader, DeadLetters deadLetters, HealthTracker tracker) {
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.tracker = tracker;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.ROUTER_DECISIONS_TOPIC, reader, deadLetters, this::observe);
    }

    private void observe(RoutingDecision decision) {
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
