package dev.zerolayer.cache.decisions;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.events.EventReader;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/** How many of the decisions read from {@code router.decisions.v1} sent a request to each node (none: not counted). */
public class DecisionsPerNode implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final Map<String, LongAdder> byNode = new ConcurrentHashMap<>();

    public DecisionsPerNode(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void accept(Message<byte[]> message) {
        RoutingDecision decision = reader.read(message, RoutingDecision.class);
        if (decision.node() != null && !decision.node().isBlank()) {
            byNode.computeIfAbsent(decision.node(), node -> new LongAdder()).increment();
        }
    }

    public long decisions(String nodeId) {
        LongAdder count = byNode.get(nodeId);
        return count == null ? 0 : count.sum();
    }

    /** Every node that was sent a request, by id. */
    public SortedMap<String, Long> byNode() {
        SortedMap<String, Long> counts = new TreeMap<>();
        byNode.forEach((node, count) -> counts.put(node, count.sum()));
        return counts;
    }
}
