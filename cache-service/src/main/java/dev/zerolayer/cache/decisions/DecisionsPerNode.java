package dev.zerolayer.cache.decisions;

import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.cache.stats.HitRatioWindow;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Reads {@code router.decisions.v1} in batches (one event per client request) once the restored state is in: counts
 * the requests sent to each node, feeds the hit-ratio window, the block estimates of nodes without KV events and the
 * session tracker, and hands triggered prewarm commands on; a poison record is dead-lettered alone.
 */
public class DecisionsPerNode implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final RestoreGate gate;
    private final Clock clock;
    private final HitRatioWindow hits;
    private final Consumer<RoutingDecision> estimates;
    private final SessionTracker sessions;
    private final Consumer<PrewarmCommand> prewarms;
    private final Map<String, LongAdder> byNode = new ConcurrentHashMap<>();

    public DecisionsPerNode(EventReader reader, DeadLetters deadLetters, RestoreGate gate, Clock clock,
            HitRatioWindow hits, Consumer<RoutingDecision> estimates, SessionTracker sessions,
            Consumer<PrewarmCommand> prewarms) {
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.gate = gate;
        this.clock = clock;
        this.hits = hits;
        this.estimates = estimates;
        this.sessions = sessions;
        this.prewarms = prewarms;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        gate.awaitOpen();
        EventBatch.forEach(batch, Topics.ROUTER_DECISIONS_TOPIC, reader, deadLetters, this::apply);
    }

    /** Applies one decision. */
    public void apply(RoutingDecision decision) {
        if (decision.node() != null && !decision.node().isBlank()) {
            byNode.computeIfAbsent(decision.node(), node -> new LongAdder()).increment();
        }
        hits.observe(decision);
        estimates.accept(decision);
        sessions.observe(decision, clock.instant()).ifPresent(prewarms);
    }

    public long decisions(String nodeId) {
        LongAdder count = byNode.get(nodeId);
        return count == null ? 0 : count.sum();
    }

    /** Every node that was sent a request since start, by id. */
    public SortedMap<String, Long> byNode() {
        SortedMap<String, Long> counts = new TreeMap<>();
        byNode.forEach((node, count) -> counts.put(node, count.sum()));
        return counts;
    }
}
