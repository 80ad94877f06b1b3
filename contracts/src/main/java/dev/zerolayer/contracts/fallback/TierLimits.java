package dev.zerolayer.contracts.fallback;

/** Time limits of one tier: time to first byte per attempt, and the whole request's deadline. */
public record TierLimits(long ttfbLimitMs, long deadlineMs) {
}
