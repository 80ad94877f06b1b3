package dev.zerolayer.contracts.router;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The requests each API key asked one router replica for in its last period, on {@code router.key-demand.v1} keyed
 * by replica id, so that the replicas split each key's rate limit by demand; key ids only, never a key.
 */
public record KeyDemand(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String replica,
        long periodMillis,
        Map<String, Long> requests) implements Event {

    public static final int SCHEMA_VERSION = 1;

    /** The most keys one record carries (a replica sends its busiest). */
    public static final int MAX_KEYS = 10_000;

    /** An API key id as the policy names it (its overrides' keys). */
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    public KeyDemand {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(replica, "replica");
        if (periodMillis <= 0 || periodMillis > 60_000) {
            throw new InvalidEventException("periodMillis must be within 1..60000, was " + periodMillis);
        }
        if (requests == null || requests.isEmpty()) {
            throw new InvalidEventException("a key demand record needs at least one key");
        }
        if (requests.size() > MAX_KEYS) {
            throw new InvalidEventException("a key demand record carries at most " + MAX_KEYS + " keys");
        }
        TreeMap<String, Long> sorted = new TreeMap<>();
        for (Map.Entry<String, Long> entry : requests.entrySet()) {
            if (entry.getKey() == null || !KEY_ID.matcher(entry.getKey()).matches()) {
                throw new InvalidEventException("a key id in requests is not one (letters, digits, _ . : -, at most 64)");
            }
            if (entry.getValue() == null || entry.getValue() < 0) {
                throw new InvalidEventException("a count in requests must be >= 0");
            }
            sorted.put(entry.getKey(), entry.getValue());
        }
        requests = Collections.unmodifiableMap(sorted);
    }

    @Override
    public String key() {
        return replica;
    }
}
