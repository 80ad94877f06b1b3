package dev.zerolayer.contracts.complexity;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.Map;

/**
 * The active complexity model on {@code complexity.model.v1} (key {@value #KEY}): a logistic combination of named
 * features and, optionally, of a text encoder's hashed buckets ({@link Ngrams}), its intercept, the tokenizer encoding
 * it assumes, and its version. A record written before {@code ngrams} existed reads as a model without an encoder.
 */
public record ComplexityModel(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String modelVersion,
        String tokenizerEncoding,
        double intercept,
        Map<String, Double> weights,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Ngrams ngrams) implements Event {

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

    /** A model of named features only (no encoder). */
    public ComplexityModel(String eventId, Instant occurredAt, int schemaVersion, String modelVersion,
            String tokenizerEncoding, double intercept, Map<String, Double> weights) {
        this(eventId, occurredAt, schemaVersion, modelVersion, tokenizerEncoding, intercept, weights, null);
    }

    /** The same model under a new envelope (event id and time). */
    public ComplexityModel restamped(String newEventId, Instant at) {
        return new ComplexityModel(newEventId, at, schemaVersion, modelVersion, tokenizerEncoding, intercept, weights,
                ngrams);
    }

    /**
     * The encoder part of a model: the encoder's identity and version ({@code encoder}, e.g. {@code hashed-ngrams-v1}),
     * its {@code 2^bits} buckets, and one signed byte per bucket (base64), the bucket's logit weight being
     * {@code scale × byte}; the weights are read from the text of the newest user turn.
     */
    public record Ngrams(String encoder, int bits, double scale, String weights) {

        public static final int MIN_BITS = 4;
        public static final int MAX_BITS = 20;

        public Ngrams {
            text(encoder, "ngrams.encoder");
            if (bits < MIN_BITS || bits > MAX_BITS) {
                throw new InvalidEventException("ngrams.bits must be within " + MIN_BITS + ".." + MAX_BITS);
            }
            if (!Double.isFinite(scale) || scale <= 0) {
                throw new InvalidEventException("ngrams.scale must be a positive finite number");
            }
            text(weights, "ngrams.weights");
            int length = decodedLength(weights);
            if (length != 1 << bits) {
                throw new InvalidEventException("ngrams.weights must be base64 of " + (1 << bits) + " bytes (2^"
                        + bits + " buckets), was " + length);
            }
        }

        /** The weights, one per bucket: {@code scale × byte}. */
        public float[] bucketWeights() {
            byte[] raw = java.util.Base64.getDecoder().decode(weights);
            float[] out = new float[raw.length];
            for (int i = 0; i < raw.length; i++) {
                out[i] = (float) (scale * raw[i]);
            }
            return out;
        }

        /** Quantises {@code bucketWeights} to one signed byte each (scale: the largest |weight| over 127). */
        public static Ngrams quantised(String encoder, int bits, double[] bucketWeights) {
            double max = 0;
            for (double w : bucketWeights) {
                max = Math.max(max, Math.abs(w));
            }
            double scale = max == 0 ? 1 : max / 127;
            byte[] raw = new byte[bucketWeights.length];
            for (int i = 0; i < raw.length; i++) {
                raw[i] = (byte) Math.round(bucketWeights[i] / scale);
            }
            return new Ngrams(encoder, bits, scale, java.util.Base64.getEncoder().encodeToString(raw));
        }

        private static int decodedLength(String base64) {
            try {
                return java.util.Base64.getDecoder().decode(base64).length;
            } catch (IllegalArgumentException e) {
                throw new InvalidEventException("ngrams.weights must be base64: " + e.getMessage());
            }
        }
    }

    @Override
    public String key() {
        return KEY;
    }
}
