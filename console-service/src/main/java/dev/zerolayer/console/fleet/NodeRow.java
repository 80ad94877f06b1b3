package dev.zerolayer.console.fleet;

import java.time.Instant;
import java.util.List;

/**
 * One node as the console shows it: its health record, its GPU's SM and memory when a sample has been seen, and its
 * circuit breaker (open or not, since when) as the newest decision that weighed it reported (null before any did).
 */
public record NodeRow(
        String nodeId,
        String tier,
        String cluster,
        String state,
        double score,
        String diagnosis,
        List<String> reasons,
        double load,
        int queueDepth,
        double kvCacheUsage,
        Double smActive,
        Long framebufferUsedMiB,
        Long framebufferTotalMiB,
        long lastSampleAgeMs,
        Boolean breakerOpen,
        Instant breakerSince,
        List<String> faults) {
}
