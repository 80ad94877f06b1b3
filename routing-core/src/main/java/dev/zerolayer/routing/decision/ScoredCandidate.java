package dev.zerolayer.routing.decision;

/**
 * One node as the decision weighed it: excluded (with the reason) or scored from its prefix share, load, queue, health
 * and stickiness terms; what {@code /v1/route/explain} shows.
 */
public record ScoredCandidate(
        String nodeId,
        String tier,
        String cluster,
        String excludedBecause,
        double score,
        double prefixShare,
        double loadTerm,
        double queueTerm,
        double healthTerm,
        double stickyBonus) {

    public boolean eligible() {
        return excludedBecause == null;
    }
}
