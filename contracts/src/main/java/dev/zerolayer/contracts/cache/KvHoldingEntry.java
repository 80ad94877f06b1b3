package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Writer;
import java.time.Instant;
import java.util.List;

/**
 * Which nodes of one {@code cache.kv-events.v1} partition hold one KV block, on {@code cache.kv-holdings.v1} keyed
 * {@code <block hash in unsigned decimal>/<events partition>} and sent to the partition the block's decimal key has
 * (where the index's record of the block goes); a tombstone means none of that partition's nodes holds it. {@code
 * writer}: the replica that owns the events partition, under the generation of its assignment.
 */
public record KvHoldingEntry(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        long blockHash,
        int eventsPartition,
        List<String> nodes,
        Writer writer) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public KvHoldingEntry {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        if (eventsPartition < 0) {
            throw new InvalidEventException("eventsPartition must not be negative");
        }
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new InvalidEventException("nodes must not be empty (a block no node holds is a tombstone)");
        }
    }

    @Override
    public String key() {
        return key(blockHash, eventsPartition);
    }

    /** The record key of a block's holdings in one events partition. */
    public static String key(long blockHash, int eventsPartition) {
        return Long.toUnsignedString(blockHash) + "/" + eventsPartition;
    }

    /** The block hash a key names (a tombstone carries only its key). */
    public static long blockOf(String key) {
        try {
            return Long.parseUnsignedLong(key.substring(0, slash(key)));
        } catch (NumberFormatException e) {
            throw new InvalidEventException("a holdings key starts with an unsigned block hash, got '" + key + "'");
        }
    }

    /** The events partition a key names. */
    public static int eventsPartitionOf(String key) {
        try {
            return Integer.parseInt(key.substring(slash(key) + 1));
        } catch (NumberFormatException e) {
            throw new InvalidEventException("a holdings key ends with an events partition, got '" + key + "'");
        }
    }

    private static int slash(String key) {
        int slash = key.indexOf('/');
        if (slash <= 0 || slash == key.length() - 1) {
            throw new InvalidEventException("a holdings key is <block hash>/<events partition>, got '" + key + "'");
        }
        return slash;
    }
}
