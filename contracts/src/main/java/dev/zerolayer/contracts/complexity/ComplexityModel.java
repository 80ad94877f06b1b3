package dev.zerolayer.contracts.complexity;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.Map;

/**
 * The active complexity model on {@code complexity.model.v1} (key {@value #KEY}): a logistic combination of named
 * features, its intercept, the tokenizer encoding it assumes, and its version.
 */
public record ComplexityModel(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String modelVersion,
        String tokenizerEncoding,
        double intercept,
        Map<String, Double> weights) implements Event {

    public static final int SCHEMA_VERSION = 1;
    public static final String KEY = "active";

    public ComplexityModel {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(modelVersion, "modelVersion");
        text(tokenizerEncoding, "tokenizerEncoding");
        present(weights, "weights");
        if (!Double.isFinite(intercept)) {
            throw new InvalidEventException("intercept must be finite");
        }
        weights.forEach((feature, weight) -> {
            if (feature == null || feature.isBlank() || weight == null || !Double.isFinite(weight)) {
                throw new InvalidEventException("weight of feature '" + feature + "' must be a finite number");
            }
        });
        weights = Map.copyOf(weights);
    }

    @Override
    public String key() {
        return KEY;
    }
}
