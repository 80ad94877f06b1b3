package dev.zerolayer.contracts.cache;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A session's affinity on {@code cache.sessions.v1}, keyed by session hash: its sticky node, the leading block hashes
 * of its recent prompts (newest last) and how many consecutive prompts were similar. {@code writer} says which
 * cache-service replica wrote it, under which term (null in records written before replicas said).
 */
public record SessionEntry(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String sessionHash,
        String stickyNode,
        List<List<Long>> recentPrefixes,
        int similarStreak,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Writer writer) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public SessionEntry {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(sessionHash, "sessionHash");
        recentPrefixes = recentPrefixes == null ? List.of() : recentPrefixes.stream().map(List::copyOf).toList();
        nonNegative(similarStreak, "similarStreak");
    }

    /** A record with no writer stamp (the writer adds it with {@link #withWriter}). */
    public SessionEntry(String eventId, Instant occurredAt, int schemaVersion, String sessionHash, String stickyNode,
            List<List<Long>> recentPrefixes, int similarStreak) {
        this(eventId, occurredAt, schemaVersion, sessionHash, stickyNode, recentPrefixes, similarStreak, null);
    }

    /** The same record, stamped with its writer. */
    public SessionEntry withWriter(Writer stamp) {
        return new SessionEntry(eventId, occurredAt, schemaVersion, sessionHash, stickyNode, recentPrefixes,
                similarStreak, stamp);
    }

    /** Whether the other record says the same of its session (who wrote it, and when, aside). */
    public boolean sameAffinity(SessionEntry other) {
        return other != null && sessionHash.equals(other.sessionHash)
                && Objects.equals(stickyNode, other.stickyNode)
                && recentPrefixes.equals(other.recentPrefixes) && similarStreak == other.similarStreak;
    }

    @Override
    public String key() {
        return sessionHash;
    }
}
