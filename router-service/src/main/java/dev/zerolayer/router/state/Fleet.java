package dev.zerolayer.router.state;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.dispatch.NodeGuards;
import dev.zerolayer.routing.decision.NodeCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes the router knows, only from {@code telemetry.node-health.v1}: placement from each record's registration,
 * health from the record, and the router's own in-flight count and breaker state per node.
 */
public class Fleet {

    private final CompactedView<NodeHealth> health;
    private final NodeGuards guards;

    public Fleet(CompactedView<NodeHealth> health, NodeGuards guards) {
        this.health = health;
        this.guards = guards;
    }

    /** Every known node as a decision candidate, holding no prompt blocks. */
    public List<NodeCandidate> candidates() {
        return candidates(Map.of());
    }

    /** Every known node as a decision candidate, with the prompt's leading blocks each one holds. */
    public List<NodeCandidate> candidates(Map<String, Integer> leadingBlocksHeld) {
        List<NodeCandidate> candidates = new ArrayList<>();
        for (NodeHealth node : health.values()) {
            NodeRegistration registration = node.registration();
            candidates.add(new NodeCandidate(node.nodeId(), registration.tier(), registration.cluster(), node.state(),
                    node.score(), node.load(), node.queueDepth(), registration.capacity(),
                    guards.inFlight(node.nodeId()), guards.breakerOpen(node.nodeId()),
                    leadingBlocksHeld.getOrDefault(node.nodeId(), 0), node.clusterLoadSpike()));
        }
        return candidates;
    }

    public Optional<NodeRegistration> registration(String nodeId) {
        return health.get(nodeId).map(NodeHealth::registration);
    }
}
