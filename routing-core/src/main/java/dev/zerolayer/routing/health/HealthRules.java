package dev.zerolayer.routing.health;

import dev.zerolayer.contracts.fallback.Thresholds;

/**
 * The numbers the node health machine compares against: SM utilisation marks and hold time, staleness, warm-up default
 * and probe lead, the score below which a node is DEGRADED, and the window in which new XID errors count.
 */
public record HealthRules(
        double smUnavailableAbove,
        double smRecoverBelow,
        long smHoldMs,
        long sampleStaleMs,
        long warmupDefaultMs,
        long warmupProbeLeadMs,
        double degradedBelow,
        long errorWindowMs) {

    public static HealthRules from(Thresholds thresholds) {
        return new HealthRules(thresholds.smUnavailableAbove(), thresholds.smRecoverBelow(), thresholds.smHoldMs(),
                thresholds.sampleStaleMs(), thresholds.warmupDefaultMs(), thresholds.warmupProbeLeadMs(), 0.6, 30_000);
    }

    public static HealthRules defaults() {
        return from(Thresholds.defaults());
    }
}
