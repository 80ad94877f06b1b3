package dev.zerolayer.cache.nodes;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What node-health says about each node, as far as the cache cares: its state and load, since when it has been DOWN,
 * and whether a session may stick to it (HEALTHY and load below the sticky limit; a node node-health never named is
 * given the benefit of the doubt). A record older than the one held for its node changes nothing, so reading the
 * compacted topic again (restore, then the view) never steps back.
 */
public final class NodeStates {

    private final double stickyMaxLoad;
    private final Map<String, NodeHealth> latest = new ConcurrentHashMap<>();
    private final Map<String, Instant> downSince = new ConcurrentHashMap<>();

    public NodeStates(double stickyMaxLoad) {
        this.stickyMaxLoad = stickyMaxLoad;
    }

    /** Takes a health record (in the order node-health published them). */
    public void update(NodeHealth health) {
        NodeHealth held = latest.get(health.nodeId());
        if (held != null && health.occurredAt().isBefore(held.occurredAt())) {
            return;
        }
        latest.put(health.nodeId(), health);
        if (health.state() == NodeState.DOWN) {
            downSince.putIfAbsent(health.nodeId(), health.occurredAt());
        } else {
            downSince.remove(health.nodeId());
        }
    }

    public Optional<NodeState> state(String node) {
        return Optional.ofNullable(latest.get(node)).map(NodeHealth::state);
    }

    /** Whether a session may keep this node as its sticky node. */
    public boolean canStick(String node) {
        NodeHealth health = latest.get(node);
        return health == null || (health.state() == NodeState.HEALTHY && health.load() < stickyMaxLoad);
    }

    /** Whether the node has been DOWN for at least {@code grace} at {@code now} (its blocks leave the index). */
    public boolean downFor(String node, Duration grace, Instant now) {
        Instant since = downSince.get(node);
        return since != null && !since.plus(grace).isAfter(now);
    }
}
