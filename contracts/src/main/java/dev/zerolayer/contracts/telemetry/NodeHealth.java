package dev.zerolayer.contracts.telemetry;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;
import static dev.zerolayer.contracts.event.EventChecks.unit;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import java.time.Instant;
import java.util.List;

/**
 * The health record of one node on {@code telemetry.node-health.v1}: state, score in [0,1], the reasons behind it, a
 * passive diagnosis, load, queue, KV usage, predicted ready time when warming, the node's recent warm-up durations,
 * sample age and the node's registration. Routers learn nodes only from these records; telemetry-service restores its
 * per-node history from them after a restart, and the replica that takes a node over from another seeds it from them.
 * {@code writer} says which telemetry-service replica wrote the record (null in records written before replicas said).
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
        long policyVersion,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Writer writer) implements Event {

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

    /** A record with no writer stamp (the writer adds it with {@link #withWriter}). */
    public NodeHealth(String eventId, Instant occurredAt, int schemaVersion, String nodeId,
            NodeRegistration registration, NodeState state, double score, List<String> reasons, String diagnosis,
            double load, int queueDepth, double kvCacheUsage, Instant predictedReadyAt, List<Long> warmupDurationsMs,
            long lastSampleAgeMs, boolean clusterLoadSpike, long policyVersion) {
        this(eventId, occurredAt, schemaVersion, nodeId, registration, state, score, reasons, diagnosis, load,
                queueDepth, kvCacheUsage, predictedReadyAt, warmupDurationsMs, lastSampleAgeMs, clusterLoadSpike,
                policyVersion, null);
    }

    /** The same record, stamped with its writer. */
    public NodeHealth withWriter(Writer stamp) {
        return new NodeHealth(eventId, occurredAt, schemaVersion, nodeId, registration, state, score, reasons,
                diagnosis, load, queueDepth, kvCacheUsage, predictedReadyAt, warmupDurationsMs, lastSampleAgeMs,
                clusterLoadSpike, policyVersion, stamp);
    }

    @Override
    public String key() {
        return nodeId;
    }
}
