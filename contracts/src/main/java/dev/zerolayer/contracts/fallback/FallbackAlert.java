package dev.zerolayer.contracts.fallback;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;
import static dev.zerolayer.contracts.event.EventChecks.unit;

import dev.zerolayer.contracts.event.Event;
import java.time.Instant;

/**
 * A fallback-rate alert on {@code fallback.alerts.v1}, keyed by scope ({@code tier:sonnet}, {@code apiKey:ab12…}):
 * FIRING when the rate stayed above the threshold for the window, RESOLVED when it dropped back.
 */
public record FallbackAlert(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String scope,
        AlertStatus status,
        double fallbackRate,
        double threshold,
        long windowSeconds,
        Instant since) implements Event {

    public static final int SCHEMA_VERSION = 1;

    /** Whether the alert is raised or cleared. */
    public enum AlertStatus {
        FIRING,
        RESOLVED
    }

    public FallbackAlert {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(scope, "scope");
        present(status, "status");
        unit(fallbackRate, "fallbackRate");
        unit(threshold, "threshold");
    }

    @Override
    public String key() {
        return scope;
    }
}
