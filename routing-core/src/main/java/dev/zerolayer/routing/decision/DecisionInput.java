package dev.zerolayer.routing.decision;

import java.util.Map;
import java.util.Set;

/**
 * One request as the decision sees it: token count, complexity score, the pinned tier (null when none), the session's
 * sticky node (null when none), the number of full prompt blocks, the model the client named (null when none; a node
 * holding an adapter of that name is preferred where the policy weighs adapter affinity), the node APIs that can
 * serve it as it is or translated (null: any), and the prompt's token count per tier where a tier's nodes count with
 * their served model's own tokenizer and chat template (other tiers: {@code tokenCount}).
 */
public record DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
        String requestedModel, Set<String> protocols, Map<String, Integer> tierTokens) {

    public DecisionInput {
        if (tokenCount < 0) {
            throw new IllegalArgumentException("tokenCount must be >= 0");
        }
        if (!Double.isFinite(complexity) || complexity < 0 || complexity > 1) {
            throw new IllegalArgumentException("complexity must be in [0,1]");
        }
        protocols = protocols == null ? null : Set.copyOf(protocols);
        tierTokens = tierTokens == null ? Map.of() : Map.copyOf(tierTokens);
    }

    /** A request counted one way for every tier. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
            String requestedModel, Set<String> protocols) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, requestedModel, protocols, Map.of());
    }

    /** The prompt's tokens as {@code tier}'s nodes count them. */
    public int tokenCount(String tier) {
        Integer counted = tierTokens.get(tier);
        return counted == null ? tokenCount : counted;
    }

    /** A request any node API can serve. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks,
            String requestedModel) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, requestedModel, null);
    }

    /** The same request served only by nodes of these APIs (null: any). */
    public DecisionInput withProtocols(Set<String> servedBy) {
        return new DecisionInput(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, requestedModel, servedBy,
                tierTokens);
    }

    /** A request that names no model. */
    public DecisionInput(int tokenCount, double complexity, String pinnedTier, String stickyNode, int promptBlocks) {
        this(tokenCount, complexity, pinnedTier, stickyNode, promptBlocks, null, null);
    }
}
