package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;

import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.List;

/**
 * Which nodes hold one KV block, on {@code cache.kv-index.v1} keyed by the block hash in decimal; a tombstone (null
 * value) means no node holds it any more.
 */
public record KvIndexEntry(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        long blockHash,
        Long parentBlockHash,
        List<String> nodes) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public KvIndexEntry {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    @Override
    public String key() {
        return Long.toUnsignedString(blockHash);
    }
}
