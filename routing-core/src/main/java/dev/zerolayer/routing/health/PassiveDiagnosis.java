package dev.zerolayer.routing.health;

import java.time.Duration;
import java.time.Instant;

import java.util.Optional;

/**
 * Diagnoses a node from the router's own observations (seed 000): time to first byte up by {@value #UP}× with steady
 * chunk intervals means {@code gateway_congestion}; steady time to first byte with chunk-interval variance up by
 * {@value #VARIANCE_UP}× means {@code gpu_bandwidth_bottleneck}. Recent values are a fast moving average, the baseline a
 * slow one (fast during the first observations, so cold-start outliers fade) that stops learning while the node
 * looks anomalous, so a long fault does not become the new normal. A diagnosis needs evidence: without an observation
 * for {@value #EVIDENCE_MS} ms (a node the router no longer sends streams to) it lapses, and the next observation
 * starts the recent averages afresh from the baseline.
 */
public final class PassiveDiagnosis {

    public static final String GATEWAY_CONGESTION = "gateway_congestion";
    public static final String GPU_BANDWIDTH_BOTTLENECK = "gpu_bandwidth_bottleneck";

    static final double UP = 1.5;
    static final double VARIANCE_UP = 2.0;
    static final double STEADY = 1.3;
    static final int WARMUP_OBSERVATIONS = 20;
    private static final double FAST = 0.3;
    private static final double SLOW = 0.05;
    private static final double EPSILON = 1e-6;
    static final long EVIDENCE_MS = 30_000;

    private double recentTtfb;
    private double recentVariance;
    private double baselineTtfb;
    private double baselineVariance;
    private long observations;
    private Instant lastObservedAt;

    /** Adds one served request's time to first byte (ms) and chunk-interval variance (ms²), observed at {@code at}. */
    public synchronized void observe(Instant at, double ttfbMs, double chunkIntervalVarianceMs2) {
        if (lastObservedAt != null && observations > 0
                && Duration.between(lastObservedAt, at).toMillis() > EVIDENCE_MS) {
            recentTtfb = baselineTtfb;
            recentVariance = baselineVariance;
        }
        if (lastObservedAt == null || at.isAfter(lastObservedAt)) {
            lastObservedAt = at;
        }
        observe(ttfbMs, chunkIntervalVarianceMs2);
    }

    /** The diagnosis at {@code now}: none once the last observation is older than the evidence window. */
    public synchronized Optional<String> diagnosis(Instant now) {
        if (lastObservedAt != null && Duration.between(lastObservedAt, now).toMillis() > EVIDENCE_MS) {
            return Optional.empty();
        }
        return diagnosis();
    }

    /** Adds one served request's time to first byte (ms) and chunk-interval variance (ms²). */
    public synchronized void observe(double ttfbMs, double chunkIntervalVarianceMs2) {
        if (!Double.isFinite(ttfbMs) || ttfbMs < 0 || !Double.isFinite(chunkIntervalVarianceMs2)
                || chunkIntervalVarianceMs2 < 0) {
            return;
        }
        if (observations == 0) {
            recentTtfb = baselineTtfb = ttfbMs;
            recentVariance = baselineVariance = chunkIntervalVarianceMs2;
        } else {
            recentTtfb += FAST * (ttfbMs - recentTtfb);
            recentVariance += FAST * (chunkIntervalVarianceMs2 - recentVariance);
            if (observations < WARMUP_OBSERVATIONS) {
                // learn fast at first, so cold-start outliers (JIT, connection set-up) fade from the baseline
                baselineTtfb = recentTtfb;
                baselineVariance = recentVariance;
            } else if (diagnosis().isEmpty()) {
                baselineTtfb += SLOW * (ttfbMs - baselineTtfb);
                baselineVariance += SLOW * (chunkIntervalVarianceMs2 - baselineVariance);
            }
        }
        observations++;
    }

    public synchronized Optional<String> diagnosis() {
        if (observations < WARMUP_OBSERVATIONS) {
            return Optional.empty();
        }
        double ttfbRatio = recentTtfb / Math.max(baselineTtfb, EPSILON);
        double varianceRatio = (recentVariance + 1.0) / (baselineVariance + 1.0);
        if (ttfbRatio > UP && varianceRatio < STEADY) {
            return Optional.of(GATEWAY_CONGESTION);
        }
        if (ttfbRatio < STEADY && varianceRatio > VARIANCE_UP) {
            return Optional.of(GPU_BANDWIDTH_BOTTLENECK);
        }
        return Optional.empty();
    }
}
