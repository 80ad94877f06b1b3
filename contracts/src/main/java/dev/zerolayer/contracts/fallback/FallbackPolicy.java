package dev.zerolayer.contracts.fallback;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;

/** A published version of the fallback policy on {@code fallback.policy.v1} (key {@value #KEY}); versions only grow. */
public record FallbackPolicy(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        long version,
        String updatedBy,
        PolicyDocument document) implements Event {

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

    @Override
    public String key() {
        return KEY;
    }
}
