package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.Scoring;

/**
 * A reason a node may not serve a request: {@link #exclude} returns why (what explain shows), or null when the node
 * may serve. Registered in {@link DecisionPlugins}; the policy's {@code scoring.filters} names the ones that run. A
 * {@link #soft()} filter excludes only while another node of the cluster remains.
 */
public interface NodeFilter {

    /** The name the policy uses for it. */
    String name();

    /** Why the node is excluded, or null. */
    String exclude(NodeCandidate node, DecisionInput input);

    /** Why the node is excluded under the policy's scoring parameters, or null; by default the two-argument answer. */
    default String exclude(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return exclude(node, input);
    }

    /**
     * Whether the filter is a preference rather than a bar: its exclusions are lifted when no node of the cluster would
     * be left, and it does not lower a cluster's health.
     */
    default boolean soft() {
        return false;
    }
}
