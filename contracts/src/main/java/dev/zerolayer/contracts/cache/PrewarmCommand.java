package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.List;

/** Asks one node, on {@code cache.prewarm.v1} keyed by node id, to load a session's prefix blocks before they are needed. */
public record PrewarmCommand(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String nodeId,
        String sessionHash,
        List<Long> blockHashes,
        String reason) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public PrewarmCommand {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(nodeId, "nodeId");
        text(sessionHash, "sessionHash");
        blockHashes = blockHashes == null ? List.of() : List.copyOf(blockHashes);
        if (blockHashes.isEmpty()) {
            throw new InvalidEventException("a prewarm command needs at least one block hash");
        }
    }

    @Override
    public String key() {
        return nodeId;
    }
}
