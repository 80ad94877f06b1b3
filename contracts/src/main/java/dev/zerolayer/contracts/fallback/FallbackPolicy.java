package dev.zerolayer.contracts.fallback;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;

/**
 * A published version of the fallback policy on {@code fallback.policy.v1} (key {@value #KEY}); versions only grow.
 * {@code writer} names the fallback-service replica that led when it was published (null in older records).
 */
public record FallbackPolicy(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        long version,
        String updatedBy,
        PolicyDocument document,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Writer writer) implements Event {

    public static final int SCHEMA_VERSION = 1;
    public static final String KEY = "active";

    public FallbackPolicy {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        if (version < 1) {
            throw new InvalidEventException("version must be >= 1, was " + version);
        }
        text(updatedBy, "updatedBy");
        present(document, "document");
    }

    /** A version with no writer stamp. */
    public FallbackPolicy(String eventId, Instant occurredAt, int schemaVersion, long version, String updatedBy,
            PolicyDocument document) {
        this(eventId, occurredAt, schemaVersion, version, updatedBy, document, null);
    }

    @Override
    public String key() {
        return KEY;
    }
}
