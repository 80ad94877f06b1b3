package dev.zerolayer.routing.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of the decision: the tier, cluster and node to serve (node null when none can: 529), the nodes to try in
 * order for bypass-on-failure (best first, never a node twice), every candidate's score, the rules that fired, the
 * fallback and warning the client is told about, the pipeline that scored (its scorers and weights, for explain), and the
 * serving node's TTFT prediction with what it was made from (null without a model).
 */
public record RouteDecision(
        String tier,
        String cluster,
        String node,
        List<String> ranked,
        List<ScoredCandidate> candidates,
        List<RuleFired> fired,
        FallbackReason fallback,
        FallbackReason warningReason,
        boolean cacheHit,
        NodePipeline pipeline,
        PredictedTtft predictedTtft) {

    /** A decision without a TTFT prediction. */
    public RouteDecision(String tier, String cluster, String node, List<String> ranked, List<ScoredCandidate> candidates,
            List<RuleFired> fired, FallbackReason fallback, FallbackReason warningReason, boolean cacheHit,
            NodePipeline pipeline) {
        this(tier, cluster, node, ranked, candidates, fired, fallback, warningReason, cacheHit, pipeline, null);
    }

    public RouteDecision {
        ranked = List.copyOf(ranked);
        candidates = List.copyOf(candidates);
        fired = List.copyOf(fired);
    }

    public boolean servable() {
        return node != null;
    }

    /** This decision with another serving node, cluster, tier and bypass order (the rest kept). */
    public RouteDecision servedBy(String newTier, String newCluster, String newNode, List<String> newRanked) {
        return new RouteDecision(newTier, newCluster, newNode, newRanked, candidates, fired, fallback, warningReason,
                cacheHit, pipeline, predictedTtft != null && predictedTtft.node().equals(newNode) ? predictedTtft : null);
    }

    public boolean fallbackTriggered() {
        return fallback != null;
    }

    /** The fallback reason's wire name, or null. */
    public String fallbackReason() {
        return fallback == null ? null : fallback.wire();
    }

    /** The warning's wire name, or null. */
    public String warning() {
        return warningReason == null ? null : warningReason.wire();
    }

    /** The rules that fired, as events and explain carry them. */
    public List<String> rulesFired() {
        List<String> wire = new ArrayList<>(fired.size());
        for (RuleFired rule : fired) {
            wire.add(rule.wire());
        }
        return wire;
    }

    /** Whether a rule of this kind fired. */
    public boolean fired(RuleFired.Kind kind) {
        for (RuleFired rule : fired) {
            if (rule.kind() == kind) {
                return true;
            }
        }
        return false;
    }
}
