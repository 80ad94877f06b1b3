package dev.zerolayer.contracts.telemetry;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;

/**
 * A node announces itself: id, tier, cluster, the cluster it stands by for (if any), upstream base URL, protocol, model
 * name and capacity (concurrent requests it serves before queueing).
 */
public record NodeRegistration(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String nodeId,
        String tier,
        String cluster,
        String standbyOf,
        String upstreamBaseUrl,
        UpstreamProtocol protocol,
        String model,
        int capacity,
        String hardwareProfile) implements NodeTelemetry {

    public static final int SCHEMA_VERSION = 1;

    public NodeRegistration {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(nodeId, "nodeId");
        text(tier, "tier");
        text(cluster, "cluster");
        text(upstreamBaseUrl, "upstreamBaseUrl");
        present(protocol, "protocol");
        text(model, "model");
        if (capacity < 1) {
            throw new InvalidEventException("capacity must be >= 1, was " + capacity);
        }
    }

    public static NodeRegistration of(String nodeId, String tier, String cluster, String standbyOf, String upstreamBaseUrl,
            UpstreamProtocol protocol, String model, int capacity, String hardwareProfile) {
        return new NodeRegistration(EventChecks.newEventId(), Instant.now(), SCHEMA_VERSION, nodeId, tier, cluster,
                standbyOf, upstreamBaseUrl, protocol, model, capacity, hardwareProfile);
    }
}
