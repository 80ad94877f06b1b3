package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.Scoring;

/**
 * One term of a node's score, in [0,1], higher is better; the node's score is the sum of the terms, each times its
 * weight in the policy's {@code scoring.weights}. Registered in {@link DecisionPlugins}; runs only when weighted.
 */
public interface NodeScorer {

    /** The name the policy's weights use for it, and explain's name for its term. */
    String name();

    /** The term for this node and request, in [0,1]; {@code scoring} carries the plugins' parameters. */
    double score(NodeCandidate node, DecisionInput input, Scoring scoring);
}
