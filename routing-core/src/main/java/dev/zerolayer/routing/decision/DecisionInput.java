package dev.zerolayer.routing.decision;

/**
 * One request as the decision sees it: token count, complexity score, the pinned tier (null when none), the session's
 * sticky node (null when none), the number of full prompt blocks, and the model the client named (null when none; a
 * node holding an adapter of that name is preferred where the policy weighs adapter affinity).
 */
public record DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
        String requestedModel) {

    public DecisionInput {
        if (tokenCount < 0) {
            throw new IllegalArgumentException("tokenCount must be >= 0");
        }
        if (!Double.isFinite(complexity) || complexity < 0 || complexity > 1) {
            throw new IllegalArgumentException("complexity must be in [0,1]");
        }
    }

    /** A request that names no model. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, null);
    }
}
