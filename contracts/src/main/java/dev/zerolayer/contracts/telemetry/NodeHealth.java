package dev.zerolayer.contracts.telemetry;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;
import static dev.zerolayer.contracts.event.EventChecks.unit;

import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.List;

/**
 * The health record of one node on {@code telemetry.node-health.v1}: state, score in [0,1], the reasons behind it, a
 * passive diagnosis, load, queue, KV usage, predicted ready time when warming, the node's recent warm-up durations,
 * sample age and the node's registration. Routers learn nodes only from these records; telemetry-service restores its
 * per-node history from them after a restart.
 */
public record NodeHealth(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String nodeId,
        NodeRegistration registration,
        NodeState state,
        double score,
        List<String> reasons,
        String diagnosis,
        double load,
        int queueDepth,
        double kvCacheUsage,
        Instant predictedReadyAt,
        List<Long> warmupDurationsMs,
        long lastSampleAgeMs,
        boolean clusterLoadSpike,
        long policyVersion) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public NodeHealth {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(nodeId, "nodeId");
        present(registration, "registration");
        present(state, "state");
        unit(score, "score");
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
        warmupDurationsMs = warmupDurationsMs == null ? List.of() : List.copyOf(warmupDurationsMs);
        nonNegative(load, "load");
        nonNegative(queueDepth, "queueDepth");
        unit(kvCacheUsage, "kvCacheUsage");
        nonNegative(lastSampleAgeMs, "lastSampleAgeMs");
    }

    @Override
    public String key() {
        return nodeId;
    }
}
