package dev.zerolayer.routing.decision;

/**
 * What the decision saw of the serving node for its TTFT prediction (the arguments of {@code TtftModel#predictMs}) and
 * the TTFT it predicted (ms); the router learns from it once the node's first byte is observed.
 */
public record PredictedTtft(String node, double queued, int uncachedTokens, long pendingTokens, double slotWait,
        double busyShare, double predictedMs) {

    /** The serving node's features and prediction; null when the node has no TTFT model. */
    static PredictedTtft of(NodeCandidate node, DecisionInput input) {
        if (node.ttft() == null) {
            return null;
        }
        return new PredictedTtft(node.nodeId(), node.queuedAhead(), node.uncachedTokens(input),
                node.pendingPrefillTokens(), node.slotWait(), node.busyShare(), node.predictedTtftMs(input));
    }
}
