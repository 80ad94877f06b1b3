package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.ScoreTerms;

/**
 * One node as the decision weighed it: excluded (with the reason) or scored, with each scorer's raw term in [0,1] and
 * its weighted share of the score, in the order of the pipeline's scorers; what {@code /v1/route/explain} shows.
 */
public final class ScoredCandidate {

    private final String nodeId;
    private final String tier;
    private final String cluster;
    private final String excludedBecause;
    private final double score;
    private final double[] raw;
    private final boolean breakerOpen;
    private final NodePipeline pipeline;

    ScoredCandidate(String nodeId, String tier, String cluster, String excludedBecause, double score, double[] raw,
            boolean breakerOpen, NodePipeline pipeline) {
        this.nodeId = nodeId;
        this.tier = tier;
        this.cluster = cluster;
        this.excludedBecause = excludedBecause;
        this.score = score;
        this.raw = raw;
        this.breakerOpen = breakerOpen;
        this.pipeline = pipeline;
    }

    public String nodeId() {
        return nodeId;
    }

    public String tier() {
        return tier;
    }

    public String cluster() {
        return cluster;
    }

    /** Why a filter excluded the node (the first that did), or null. */
    public String excludedBecause() {
        return excludedBecause;
    }

    public boolean eligible() {
        return excludedBecause == null;
    }

    /** Whether the router's circuit breaker for the node refused calls when the decision was made. */
    public boolean breakerOpen() {
        return breakerOpen;
    }

    /** The weighted sum of the terms; 0 for an excluded node. */
    public double score() {
        return score;
    }

    /** How many terms: one per weighted scorer (none for an excluded node). */
    public int termCount() {
        return raw.length;
    }

    public String termName(int i) {
        return pipeline.scorerName(i);
    }

    /** Scorer {@code i}'s term, in [0,1]. */
    public double raw(int i) {
        return raw[i];
    }

    /** Scorer {@code i}'s share of the score: its term times its weight. */
    public double weighted(int i) {
        return raw[i] * pipeline.weight(i);
    }

    /** This candidate as the decision event records it: terms and weighted shares by scorer name. */
    public CandidateScore forEvent() {
        if (raw.length == 0) {
            return new CandidateScore(nodeId, tier, cluster, excludedBecause, score, null, null, breakerOpen);
        }
        double[] weighted = new double[raw.length];
        for (int i = 0; i < raw.length; i++) {
            weighted[i] = weighted(i);
        }
        ScoreTerms.Names names = pipeline.termNames();
        return new CandidateScore(nodeId, tier, cluster, excludedBecause, score, names.terms(raw),
                names.terms(weighted), breakerOpen);
    }

    @Override
    public String toString() {
        return nodeId + (eligible() ? " " + score : " excluded: " + excludedBecause);
    }
}
