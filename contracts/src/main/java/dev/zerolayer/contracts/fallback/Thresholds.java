package dev.zerolayer.contracts.fallback;

/**
 * The numbers the decision and health rules compare against (SPEC sections 3 and 4); {@link #defaults()} are the SPEC
 * values, and {@link #builder()} / {@link #toBuilder()} change some of them by name.
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

    /** SPEC's values (the builder's starting point). */
    public static Thresholds defaults() {
        return builder().build();
    }

    /** A builder starting from SPEC's values, to change some by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these thresholds, to change some by name. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.clusterHealthMin = clusterHealthMin;
        builder.highComplexity = highComplexity;
        builder.peakBandLow = peakBandLow;
        builder.peakBandHigh = peakBandHigh;
        builder.peakLoadMark = peakLoadMark;
        builder.loadSpikeRise = loadSpikeRise;
        builder.loadSpikeWindowMs = loadSpikeWindowMs;
        builder.smUnavailableAbove = smUnavailableAbove;
        builder.smRecoverBelow = smRecoverBelow;
        builder.smHoldMs = smHoldMs;
        builder.sampleStaleMs = sampleStaleMs;
        builder.viewStaleMs = viewStaleMs;
        builder.warmupDefaultMs = warmupDefaultMs;
        builder.warmupProbeLeadMs = warmupProbeLeadMs;
        builder.cacheHitBlockShare = cacheHitBlockShare;
        return builder;
    }

    /** Builds thresholds by naming each number; an unnamed one keeps its SPEC value (or the copied one). */
    public static final class Builder {

        private double clusterHealthMin = 0.70;
        private double highComplexity = 0.95;
        private double peakBandLow = 0.40;
        private double peakBandHigh = 0.55;
        private double peakLoadMark = 0.80;
        private double loadSpikeRise = 0.30;
        private long loadSpikeWindowMs = 1_000;
        private double smUnavailableAbove = 0.95;
        private double smRecoverBelow = 0.90;
        private long smHoldMs = 500;
        private long sampleStaleMs = 3_000;
        private long viewStaleMs = 10_000;
        private long warmupDefaultMs = 30_000;
        private long warmupProbeLeadMs = 50;
        private double cacheHitBlockShare = 0.5;

        private Builder() {
        }

        public Builder clusterHealthMin(double clusterHealthMin) {
            this.clusterHealthMin = clusterHealthMin;
            return this;
        }

        public Builder highComplexity(double highComplexity) {
            this.highComplexity = highComplexity;
            return this;
        }

        public Builder peakBandLow(double peakBandLow) {
            this.peakBandLow = peakBandLow;
            return this;
        }

        public Builder peakBandHigh(double peakBandHigh) {
            this.peakBandHigh = peakBandHigh;
            return this;
        }

        public Builder peakLoadMark(double peakLoadMark) {
            this.peakLoadMark = peakLoadMark;
            return this;
        }

        public Builder loadSpikeRise(double loadSpikeRise) {
            this.loadSpikeRise = loadSpikeRise;
            return this;
        }

        public Builder loadSpikeWindowMs(long loadSpikeWindowMs) {
            this.loadSpikeWindowMs = loadSpikeWindowMs;
            return this;
        }

        public Builder smUnavailableAbove(double smUnavailableAbove) {
            this.smUnavailableAbove = smUnavailableAbove;
            return this;
        }

        public Builder smRecoverBelow(double smRecoverBelow) {
            this.smRecoverBelow = smRecoverBelow;
            return this;
        }

        public Builder smHoldMs(long smHoldMs) {
            this.smHoldMs = smHoldMs;
            return this;
        }

        public Builder sampleStaleMs(long sampleStaleMs) {
            this.sampleStaleMs = sampleStaleMs;
            return this;
        }

        public Builder viewStaleMs(long viewStaleMs) {
            this.viewStaleMs = viewStaleMs;
            return this;
        }

        public Builder warmupDefaultMs(long warmupDefaultMs) {
            this.warmupDefaultMs = warmupDefaultMs;
            return this;
        }

        public Builder warmupProbeLeadMs(long warmupProbeLeadMs) {
            this.warmupProbeLeadMs = warmupProbeLeadMs;
            return this;
        }

        public Builder cacheHitBlockShare(double cacheHitBlockShare) {
            this.cacheHitBlockShare = cacheHitBlockShare;
            return this;
        }

        public Thresholds build() {
            return new Thresholds(clusterHealthMin, highComplexity, peakBandLow, peakBandHigh, peakLoadMark,
                    loadSpikeRise, loadSpikeWindowMs, smUnavailableAbove, smRecoverBelow, smHoldMs, sampleStaleMs,
                    viewStaleMs, warmupDefaultMs, warmupProbeLeadMs, cacheHitBlockShare);
        }
    }
}
