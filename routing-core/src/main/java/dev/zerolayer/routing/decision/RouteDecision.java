package dev.zerolayer.routing.decision;

import java.util.List;

/**
 * The outcome of the decision: the tier, cluster and node to serve (node null when none can: 529), the nodes to try in
 * order for bypass-on-failure (best first, never a node twice), every candidate's score, the rules that fired, and the
 * fallback/warning the client is told about.
 */
public record RouteDecision(
        String tier,
        String cluster,
        String node,
        List<String> ranked,
        List<ScoredCandidate> candidates,
        List<String> rulesFired,
        boolean fallbackTriggered,
        String fallbackReason,
        String warning,
        boolean cacheHit) {

    public RouteDecision {
        ranked = List.copyOf(ranked);
        candidates = List.copyOf(candidates);
        rulesFired = List.copyOf(rulesFired);
    }

    public boolean servable() {
        return node != null;
    }
}
