package dev.zerolayer.routing.scrape;

import java.util.OptionalDouble;

/**
 * What one node's scrapes say, each signal absent when no selected series carried it: SM activity (mean over the
 * node's GPUs), NVLink TX/RX bytes per second and framebuffer MiB (summed), the last XID error code seen, vLLM's running
 * and waiting requests, KV-cache usage, and the cumulative TTFT histogram sum and count.
 */
public record ScrapedSignals(
        OptionalDouble smActive,
        OptionalDouble nvlinkTxBytesPerSecond,
        OptionalDouble nvlinkRxBytesPerSecond,
        OptionalDouble framebufferUsedMiB,
        OptionalDouble framebufferFreeMiB,
        OptionalDouble lastXidError,
        OptionalDouble requestsRunning,
        OptionalDouble requestsWaiting,
        OptionalDouble kvCacheUsage,
        OptionalDouble ttftSecondsSum,
        OptionalDouble ttftCount) {
}
