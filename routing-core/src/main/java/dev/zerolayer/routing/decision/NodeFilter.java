package dev.zerolayer.routing.decision;

/**
 * A reason a node may not serve a request: {@link #exclude} returns why (what explain shows), or null when the node
 * may serve. Registered in {@link DecisionPlugins}; the policy's {@code scoring.filters} names the ones that run.
 */
public interface NodeFilter {

    /** The name the policy uses for it. */
    String name();

    /** Why the node is excluded, or null. */
    String exclude(NodeCandidate node, DecisionInput input);
}
