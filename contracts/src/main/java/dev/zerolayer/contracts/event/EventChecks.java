package dev.zerolayer.contracts.event;

import java.time.Instant;
import java.util.UUID;

/** Argument checks shared by the event records' compact constructors: a violation is an {@link InvalidEventException}. */
public final class EventChecks {

    private EventChecks() {
    }

    public static String newEventId() {
        return UUID.randomUUID().toString();
    }

    public static void envelope(String eventId, Instant occurredAt, int schemaVersion, int supportedVersion) {
        text(eventId, "eventId");
        present(occurredAt, "occurredAt");
        if (schemaVersion != supportedVersion) {
            throw new InvalidEventException("unsupported schemaVersion " + schemaVersion + " (supported: " + supportedVersion + ")");
        }
    }

    public static String text(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new InvalidEventException("missing " + field);
        }
        return value;
    }

    public static <T> T present(T value, String field) {
        if (value == null) {
            throw new InvalidEventException("missing " + field);
        }
        return value;
    }

    public static double unit(double value, String field) {
        if (!Double.isFinite(value) || value < 0.0 || value > 1.0) {
            throw new InvalidEventException(field + " must be a number in [0,1], was " + value);
        }
        return value;
    }

    public static double nonNegative(double value, String field) {
        if (!Double.isFinite(value) || value < 0.0) {
            throw new InvalidEventException(field + " must be a finite number >= 0, was " + value);
        }
        return value;
    }

    public static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new InvalidEventException(field + " must be >= 0, was " + value);
        }
        return value;
    }
}
