package dev.zerolayer.contracts.event;

import java.time.Instant;
import java.util.UUID;

/** Argument checks shared by the event records' compact constructors: a violation is an {@link InvalidEventException}. */
public final class EventChecks {

    private EventChecks() {
    }

    /**
     * A fresh random id in UUID (version 4) form. Ids only need to be unique, not unpredictable, so they come from
     * {@link java.util.concurrent.ThreadLocalRandom}: {@link UUID#randomUUID()} draws from a {@code SecureRandom} behind
     * one lock, which serialised the router's event loops (waits of 10-20 ms under load).
     */
    public static String newEventId() {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        long most = (random.nextLong() & ~0xF000L) | 0x4000L;
        long least = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
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
