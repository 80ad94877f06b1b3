package dev.zerolayer.routing.decision;

import java.util.Set;

/**
 * One request as the decision sees it: token count, complexity score, the pinned tier (null when none), the session's
 * sticky node (null when none), the number of full prompt blocks, the model the client named (null when none; a node
 * holding an adapter of that name is preferred where the policy weighs adapter affinity), and the node APIs that can
 * serve it as it is or translated (null: any).
 */
public record DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
        String requestedModel, Set<String> protocols) {

    public DecisionInput {
        if (tokenCount < 0) {
            throw new IllegalArgumentException("tokenCount must be >= 0");
        }
        if (!Double.isFinite(complexity) || complexity < 0 || complexity > 1) {
            throw new IllegalArgumentException("complexity must be in [0,1]");
        }
        protocols = protocols == null ? null : Set.copyOf(protocols);
    }

    /** A request any node API can serve. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
            String requestedModel) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, requestedModel, null);
    }

    /** The same request served only by nodes of these APIs (null: any). */
    public DecisionInput withProtocols(Set<String> servedBy) {
        return new DecisionInput(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, requestedModel, servedBy);
    }

    /** A request that names no model. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, null, null);
    }
}
