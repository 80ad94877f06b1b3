package dev.zerolayer.console.fleet;

import java.util.List;

/** One node as the console shows it: its health record and, when a sample has been seen, its GPU's SM and memory. */
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
        List<String> faults) {
}
