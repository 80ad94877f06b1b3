package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.List;

/**
 * A session's affinity on {@code cache.sessions.v1}, keyed by session hash: its sticky node, the leading block hashes
 * of its recent prompts (newest last) and how many consecutive prompts were similar.
 */
public record SessionEntry(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String sessionHash,
        String stickyNode,
        List<List<Long>> recentPrefixes,
        int similarStreak) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public SessionEntry {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(sessionHash, "sessionHash");
        recentPrefixes = recentPrefixes == null ? List.of() : recentPrefixes.stream().map(List::copyOf).toList();
        nonNegative(similarStreak, "similarStreak");
    }

    @Override
    public String key() {
        return sessionHash;
    }
}
