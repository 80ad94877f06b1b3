package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.telemetry.NodeState;

/**
 * What the router knows of one node at decision time: placement, health (state, score, load, queue from telemetry),
 * its own in-flight count and breaker, the prompt's leading blocks the node holds, its cluster's spike flag, and what its
 * registration declares (adapters, cost).
 */
public record NodeCandidate(
        String nodeId,
        String tier,
        String cluster,
        NodeState state,
        double healthScore,
        double load,
        int queueDepth,
        int capacity,
        int inFlight,
        boolean breakerOpen,
        int prefixBlocksHeld,
        boolean clusterLoadSpike,
        NodeTraits traits) {

    public NodeCandidate {
        traits = traits == null ? NodeTraits.NONE : traits;
    }

    /** A node that declares no adapters and no cost. */
    public NodeCandidate(String nodeId, String tier, String cluster, NodeState state, double healthScore, double load,
            int queueDepth, int capacity, int inFlight, boolean breakerOpen, int prefixBlocksHeld,
            boolean clusterLoadSpike) {
        this(nodeId, tier, cluster, state, healthScore, load, queueDepth, capacity, inFlight, breakerOpen,
                prefixBlocksHeld, clusterLoadSpike, NodeTraits.NONE);
    }

    /** Load as the router sees it: the larger of telemetry's and its own in-flight share. */
    public double effectiveLoad() {
        return Math.max(load, (double) inFlight / Math.max(1, capacity));
    }
}
