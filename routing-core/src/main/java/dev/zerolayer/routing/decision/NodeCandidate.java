package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.routing.ttft.TtftModel;

/**
 * What the router knows of one node at decision time: placement, health (state, score, load, queue from telemetry),
 * its own in-flight count and breaker, the prompt's leading blocks the node holds, its cluster's spike flag, what its
 * registration declares (adapters, cost), its learned time-to-first-token model (null: none), and the router's own
 * requests to it still waiting for their first byte with the prompt tokens the node must still prefill for them (0 when
 * the router does not track them).
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
        NodeTraits traits,
        TtftModel ttft,
        int awaitingFirstByte,
        long pendingPrefillTokens) {

    /** Tokens per KV block (vLLM's default block size, SPEC section 6). */
    public static final int BLOCK_TOKENS = 16;

    public NodeCandidate {
        traits = traits == null ? NodeTraits.NONE : traits;
    }

    /** A node with a TTFT model but no first-byte backlog tracked. */
    public NodeCandidate(String nodeId, String tier, String cluster, NodeState state, double healthScore, double load,
            int queueDepth, int capacity, int inFlight, boolean breakerOpen, int prefixBlocksHeld,
            boolean clusterLoadSpike, NodeTraits traits, TtftModel ttft) {
        this(nodeId, tier, cluster, state, healthScore, load, queueDepth, capacity, inFlight, breakerOpen,
                prefixBlocksHeld, clusterLoadSpike, traits, ttft, 0, 0L);
    }

    /** A node without a TTFT model. */
    public NodeCandidate(String nodeId, String tier, String cluster, NodeState state, double healthScore, double load,
            int queueDepth, int capacity, int inFlight, boolean breakerOpen, int prefixBlocksHeld,
            boolean clusterLoadSpike, NodeTraits traits) {
        this(nodeId, tier, cluster, state, healthScore, load, queueDepth, capacity, inFlight, breakerOpen,
                prefixBlocksHeld, clusterLoadSpike, traits, null);
    }

    /** A node that declares no adapters and no cost. */
    public NodeCandidate(String nodeId, String tier, String cluster, NodeState state, double healthScore, double load,
            int queueDepth, int capacity, int inFlight, boolean breakerOpen, int prefixBlocksHeld,
            boolean clusterLoadSpike) {
        this(nodeId, tier, cluster, state, healthScore, load, queueDepth, capacity, inFlight, breakerOpen,
                prefixBlocksHeld, clusterLoadSpike, NodeTraits.NONE, null);
    }

    /** This node with a TTFT model. */
    public NodeCandidate withTtft(TtftModel model) {
        return new NodeCandidate(nodeId, tier, cluster, state, healthScore, load, queueDepth, capacity, inFlight,
                breakerOpen, prefixBlocksHeld, clusterLoadSpike, traits, model, awaitingFirstByte,
                pendingPrefillTokens);
    }

    /** Requests ahead of a new one still waiting for a first token: telemetry's queue or the router's own, the larger. */
    public int queuedAhead() {
        return Math.max(0, Math.max(queueDepth, awaitingFirstByte));
    }

    /** Requests beyond the node's run slots once this one is sent (0 while a slot is free). */
    public int slotWait() {
        return Math.max(0, inFlight + 1 - Math.max(1, capacity));
    }

    /** The router's own in-flight share of the node's capacity, at most 1. */
    public double busyShare() {
        return Math.min(1.0, (double) inFlight / Math.max(1, capacity));
    }

    /** Prompt tokens the node must still prefill: the request's tokens less the leading blocks it holds. */
    public int uncachedTokens(DecisionInput input) {
        return Math.max(0, input.tokenCount(tier) - prefixBlocksHeld * BLOCK_TOKENS);
    }

    /** Predicted time to first token (ms) for the request on this node; NaN without a model. */
    public double predictedTtftMs(DecisionInput input) {
        return ttft == null ? Double.NaN
                : ttft.predictMs(queuedAhead(), uncachedTokens(input), pendingPrefillTokens, slotWait(), busyShare());
    }

    /** Load as the router sees it: the larger of telemetry's and its own in-flight share. */
    public double effectiveLoad() {
        return Math.max(load, (double) inFlight / Math.max(1, capacity));
    }
}
