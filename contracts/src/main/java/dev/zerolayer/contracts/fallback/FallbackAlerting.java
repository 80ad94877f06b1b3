package dev.zerolayer.contracts.fallback;

/**
 * When fallback-service raises a fallback-rate alert (SPEC section 7): the rate over a sliding window of
 * {@code windowSeconds} stayed above {@code fallbackRateThreshold} for {@code sustainSeconds}, with at least
 * {@code minDecisions} decisions in the window; {@link #defaults()} is 5 % over 5 minutes for 5 minutes, 100 decisions.
 */
public record FallbackAlerting(double fallbackRateThreshold, long windowSeconds, long sustainSeconds,
        int minDecisions) {

    public static FallbackAlerting defaults() {
        return new FallbackAlerting(0.05, 300, 300, 100);
    }
}
