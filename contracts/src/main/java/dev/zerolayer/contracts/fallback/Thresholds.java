package dev.zerolayer.contracts.fallback;

/**
 * The numbers the decision and health rules compare against (SPEC sections 3 and 4); {@link #defaults()} are the SPEC
 * values.
 */
public record Thresholds(
        double clusterHealthMin,
        double highComplexity,
        double peakBandLow,
        double peakBandHigh,
        double peakLoadMark,
        double loadSpikeRise,
        long loadSpikeWindowMs,
        double smUnavailableAbove,
        double smRecoverBelow,
        long smHoldMs,
        long sampleStaleMs,
        long viewStaleMs,
        long warmupDefaultMs,
        long warmupProbeLeadMs,
        double cacheHitBlockShare) {

    public static Thresholds defaults() {
        return new Thresholds(0.70, 0.95, 0.40, 0.55, 0.80, 0.30, 1_000, 0.95, 0.90, 500, 3_000, 10_000, 30_000, 50,
                0.5);
    }
}
