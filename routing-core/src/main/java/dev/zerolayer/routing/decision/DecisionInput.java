package dev.zerolayer.routing.decision;

/**
 * One request as the decision sees it: token count, complexity score, the pinned tier (null when none), the session's
 * sticky node (null when none) and the number of full prompt blocks.
 */
public record DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks) {

    public DecisionInput {
        if (tokenCount < 0) {
            throw new IllegalArgumentException("tokenCount must be >= 0");
        }
        if (!Double.isFinite(complexity) || complexity < 0 || complexity > 1) {
            throw new IllegalArgumentException("complexity must be in [0,1]");
        }
    }
}
