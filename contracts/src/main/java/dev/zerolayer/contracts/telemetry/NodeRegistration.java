package dev.zerolayer.contracts.telemetry;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.List;

/**
 * A node announces itself: id, tier, cluster, the cluster it stands by for (if any), upstream base URL, protocol, model
 * name, capacity (concurrent requests it serves before queueing), hardware profile, and the name of the credential the
 * router sends it (null: none; the secret itself lives in the router's configuration, never on a topic), the LoRA
 * adapters it holds (empty: none), its cost per million tokens (null: not declared) and how its engine hashes prompt
 * blocks (null: as the simulated nodes, with the router's default counting). A record written before the last four
 * existed decodes without them.
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
        String hardwareProfile,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) String credentialRef,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) List<String> adapters,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Double costPerMillionTokens,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) PrefixCaching prefixCache)
        implements NodeTelemetry {

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
        if (credentialRef != null && !credentialRef.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new InvalidEventException("credentialRef must be 1-64 letters, digits, '.', '_' or '-'");
        }
        adapters = adapters == null ? List.of() : List.copyOf(adapters);
        if (adapters.size() > 256 || adapters.stream().anyMatch(a -> a == null || a.isBlank() || a.length() > 256)) {
            throw new InvalidEventException("adapters must be at most 256 names of 1-256 characters");
        }
        if (costPerMillionTokens != null && !(costPerMillionTokens >= 0 && costPerMillionTokens < 1e9)) {
            throw new InvalidEventException("costPerMillionTokens must be >= 0, was " + costPerMillionTokens);
        }
    }

    /** A registration whose node needs no credential. */
    public NodeRegistration(String eventId, Instant occurredAt, int schemaVersion, String nodeId, String tier,
            String cluster, String standbyOf, String upstreamBaseUrl, UpstreamProtocol protocol, String model,
            int capacity, String hardwareProfile) {
        this(eventId, occurredAt, schemaVersion, nodeId, tier, cluster, standbyOf, upstreamBaseUrl, protocol, model,
                capacity, hardwareProfile, null, null, null, null);
    }

    /** A registration with a credential reference and neither adapters nor a cost. */
    public NodeRegistration(String eventId, Instant occurredAt, int schemaVersion, String nodeId, String tier,
            String cluster, String standbyOf, String upstreamBaseUrl, UpstreamProtocol protocol, String model,
            int capacity, String hardwareProfile, String credentialRef) {
        this(eventId, occurredAt, schemaVersion, nodeId, tier, cluster, standbyOf, upstreamBaseUrl, protocol, model,
                capacity, hardwareProfile, credentialRef, null, null, null);
    }

    /** The same registration declaring how its engine hashes prompt blocks. */
    public NodeRegistration withPrefixCache(PrefixCaching caching) {
        return new NodeRegistration(eventId, occurredAt, schemaVersion, nodeId, tier, cluster, standbyOf,
                upstreamBaseUrl, protocol, model, capacity, hardwareProfile, credentialRef, adapters,
                costPerMillionTokens, caching);
    }

    /** The same registration served at another base URL, needing no credential (a stand-in for the node). */
    public NodeRegistration servedAt(String baseUrl) {
        return new NodeRegistration(eventId, occurredAt, schemaVersion, nodeId, tier, cluster, standbyOf, baseUrl,
                protocol, model, capacity, hardwareProfile, null, adapters, costPerMillionTokens, prefixCache);
    }

    public static NodeRegistration of(String nodeId, String tier, String cluster, String standbyOf, String upstreamBaseUrl,
            UpstreamProtocol protocol, String model, int capacity, String hardwareProfile) {
        return new NodeRegistration(EventChecks.newEventId(), Instant.now(), SCHEMA_VERSION, nodeId, tier, cluster,
                standbyOf, upstreamBaseUrl, protocol, model, capacity, hardwareProfile);
    }
}
