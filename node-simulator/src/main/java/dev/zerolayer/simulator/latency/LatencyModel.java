package dev.zerolayer.simulator.latency;

/**
 * Delays of one node from its hardware profile: time to first token = fixed overhead + uncached prompt tokens at the
 * prefill rate; inter-token time = 1 / decode rate, slowed by {@code batchSlowdown} per additional running request;
 * warm-up as profiled. Switched off, every delay is zero.
 */
public final class LatencyModel {

    private static final double NANOS = 1e9;

    private final HardwareProfile profile;
    private final boolean enabled;

    public LatencyModel(HardwareProfile profile, boolean enabled) {
        this.profile = profile;
        this.enabled = enabled;
    }

    public boolean enabled() {
        return enabled;
    }

    public HardwareProfile profile() {
        return profile;
    }

    /** Time from admission to the first token when {@code uncachedTokens} prompt tokens must be prefilled. */
    public long prefillNanos(int uncachedTokens) {
        if (!enabled) {
            return 0;
        }
        return profile.firstTokenOverhead().toNanos()
                + (long) (Math.max(0, uncachedTokens) * NANOS / profile.prefillTokensPerSecond());
    }

    /** Time between two tokens of one request while {@code batch} requests run together (at least 1). */
    public long interTokenNanos(int batch) {
        if (!enabled) {
            return 0;
        }
        return (long) (NANOS / profile.decodeTokensPerSecond() * batchFactor(batch));
    }

    /** How much slower each token is with {@code batch} requests running than with one. */
    public double batchFactor(int batch) {
        return 1.0 + profile.batchSlowdown() * (Math.max(1, batch) - 1);
    }

    /** The CUDA-graph warm-up a cold node pays before its first request (zero when switched off). */
    public long warmupNanos() {
        return enabled ? profile.warmup().toNanos() : 0;
    }
}
