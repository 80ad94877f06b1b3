package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import java.time.Instant;
import java.util.List;

/**
 * Which nodes hold one KV block, on {@code cache.kv-index.v1} keyed by the block hash in decimal; a tombstone (null
 * value) means no node holds it any more. {@code writer} says which cache-service replica wrote it, under which term
 * (null in records written before replicas said).
 */
public record KvIndexEntry(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        long blockHash,
        Long parentBlockHash,
        List<String> nodes,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Writer writer) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public KvIndexEntry {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** A record with no writer stamp. */
    public KvIndexEntry(String eventId, Instant occurredAt, int schemaVersion, long blockHash, Long parentBlockHash,
            List<String> nodes) {
        this(eventId, occurredAt, schemaVersion, blockHash, parentBlockHash, nodes, null);
    }

    @Override
    public String key() {
        return Long.toUnsignedString(blockHash);
    }
}
