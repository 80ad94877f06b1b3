package dev.zerolayer.contracts.fallback;

/** One row of the tier table: prompts with at most {@code maxTokens} tokens and at most {@code maxComplexity} go to {@code tier}. */
public record TierRule(int maxTokens, double maxComplexity, String tier) {
}
