package dev.zerolayer.contracts.telemetry;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.text;
import static dev.zerolayer.contracts.event.EventChecks.unit;

import dev.zerolayer.contracts.event.EventChecks;
import java.time.Instant;

/**
 * One hardware and serving sample of a node at {@code occurredAt}: SM activity, NVLink traffic, framebuffer, queue,
 * KV-cache usage, warm-up flag and cumulative XID errors. Ratios are in [0,1]; counts and rates are finite and >= 0.
 */
public record TelemetrySample(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String nodeId,
        double smActive,
        double nvlinkTxBytesPerSecond,
        double nvlinkRxBytesPerSecond,
        double nvlinkSaturation,
        long framebufferUsedMiB,
        long framebufferFreeMiB,
        double framebufferFragmentation,
        int requestsRunning,
        int requestsWaiting,
        double kvCacheUsage,
        boolean warmingUp,
        long xidErrors) implements NodeTelemetry {

    public static final int SCHEMA_VERSION = 1;

    public TelemetrySample {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(nodeId, "nodeId");
        unit(smActive, "smActive");
        nonNegative(nvlinkTxBytesPerSecond, "nvlinkTxBytesPerSecond");
        nonNegative(nvlinkRxBytesPerSecond, "nvlinkRxBytesPerSecond");
        unit(nvlinkSaturation, "nvlinkSaturation");
        nonNegative(framebufferUsedMiB, "framebufferUsedMiB");
        nonNegative(framebufferFreeMiB, "framebufferFreeMiB");
        unit(framebufferFragmentation, "framebufferFragmentation");
        nonNegative(requestsRunning, "requestsRunning");
        nonNegative(requestsWaiting, "requestsWaiting");
        unit(kvCacheUsage, "kvCacheUsage");
        nonNegative(xidErrors, "xidErrors");
    }

    /** A sample stamped now with a fresh event id. */
    public static TelemetrySample now(String nodeId, double smActive, double nvlinkTxBytesPerSecond,
            double nvlinkRxBytesPerSecond, double nvlinkSaturation, long framebufferUsedMiB, long framebufferFreeMiB,
            double framebufferFragmentation, int requestsRunning, int requestsWaiting, double kvCacheUsage,
            boolean warmingUp, long xidErrors) {
        return new TelemetrySample(EventChecks.newEventId(), Instant.now(), SCHEMA_VERSION, nodeId, smActive,
                nvlinkTxBytesPerSecond, nvlinkRxBytesPerSecond, nvlinkSaturation, framebufferUsedMiB,
                framebufferFreeMiB, framebufferFragmentation, requestsRunning, requestsWaiting, kvCacheUsage, warmingUp,
                xidErrors);
    }
}
