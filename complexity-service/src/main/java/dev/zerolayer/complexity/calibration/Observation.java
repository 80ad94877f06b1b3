package dev.zerolayer.complexity.calibration;

import java.time.Instant;

/**
 * What calibration keeps of one routed decision: when, its complexity score, the tier the table gave it, the tier that
 * served it, whether the tier was pinned, and whether and why it fell back.
 */
public record Observation(Instant at, double score, String tableTier, String servedTier, boolean pinned,
        boolean fallback, String fallbackReason) {
}
