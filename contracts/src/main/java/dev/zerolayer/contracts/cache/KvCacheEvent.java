package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.List;

/**
 * A node's KV-cache change on {@code cache.kv-events.v1}, keyed by node id so a node's events stay in order; the
 * per-node {@code sequence} lets readers drop duplicates and notice gaps. Token ids are not carried: hashes only.
 */
public record KvCacheEvent(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String nodeId,
        long sequence,
        KvEventType type,
        List<Long> blockHashes,
        Long parentBlockHash,
        int blockSize) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public KvCacheEvent {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(nodeId, "nodeId");
        nonNegative(sequence, "sequence");
        present(type, "type");
        blockHashes = blockHashes == null ? List.of() : List.copyOf(blockHashes);
        if (type != KvEventType.ALL_BLOCKS_CLEARED && blockHashes.isEmpty()) {
            throw new InvalidEventException(type + " needs at least one block hash");
        }
        nonNegative(blockSize, "blockSize");
    }

    @Override
    public String key() {
        return nodeId;
    }
}
