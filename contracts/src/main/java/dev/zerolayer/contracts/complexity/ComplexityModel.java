package dev.zerolayer.contracts.complexity;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The active complexity model on {@code complexity.model.v1} (key {@value #KEY}): a logistic combination of named
 * features and, optionally, of a text encoder's hashed buckets ({@link Ngrams}), its intercept, an optional monotone
 * {@link ScoreMap} of the logistic output onto the tier table's scale, the tokenizer encoding it assumes, and its
 * version. A record written before {@code ngrams} or {@code scoreMap} existed reads as a model without them.
 */
public record ComplexityModel(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String modelVersion,
        String tokenizerEncoding,
        double intercept,
        Map<String, Double> weights,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Ngrams ngrams,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) ScoreMap scoreMap) implements Event {

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
        this(eventId, occurredAt, schemaVersion, modelVersion, tokenizerEncoding, intercept, weights, null, null);
    }

    /** A model of named features and an encoder part, without a score map. */
    public ComplexityModel(String eventId, Instant occurredAt, int schemaVersion, String modelVersion,
            String tokenizerEncoding, double intercept, Map<String, Double> weights, Ngrams ngrams) {
        this(eventId, occurredAt, schemaVersion, modelVersion, tokenizerEncoding, intercept, weights, ngrams, null);
    }

    /** The same model under a new envelope (event id and time). */
    public ComplexityModel restamped(String newEventId, Instant at) {
        return new ComplexityModel(newEventId, at, schemaVersion, modelVersion, tokenizerEncoding, intercept, weights,
                ngrams, scoreMap);
    }

    /**
     * A monotone piecewise-linear map of the model's logistic output onto the tier table's scale: {@code from[i] ↦
     * to[i]}, linear in between; {@code from} rises strictly from 0 to 1 and {@code to} never falls and stays in [0,1],
     * so the map keeps every ranking.
     */
    public record ScoreMap(List<Double> from, List<Double> to) {

        public static final int MAX_KNOTS = 64;

        public ScoreMap {
            present(from, "scoreMap.from");
            present(to, "scoreMap.to");
            if (from.size() != to.size() || from.size() < 2 || from.size() > MAX_KNOTS) {
                throw new InvalidEventException("scoreMap.from and scoreMap.to must hold the same number of knots, 2.."
                        + MAX_KNOTS + "; were " + from.size() + " and " + to.size());
            }
            for (int i = 0; i < from.size(); i++) {
                Double x = from.get(i);
                Double y = to.get(i);
                if (x == null || y == null || !(x >= 0 && x <= 1) || !(y >= 0 && y <= 1)) {
                    throw new InvalidEventException("scoreMap knot " + i + " must be two numbers within [0,1]");
                }
                if (i > 0 && !(x > from.get(i - 1))) {
                    throw new InvalidEventException("scoreMap.from must rise strictly (knot " + i + ")");
                }
                if (i > 0 && y < to.get(i - 1)) {
                    throw new InvalidEventException("scoreMap.to must never fall (knot " + i + ")");
                }
            }
            if (from.get(0) != 0.0 || from.get(from.size() - 1) != 1.0) {
                throw new InvalidEventException("scoreMap.from must start at 0 and end at 1");
            }
            from = List.copyOf(from);
            to = List.copyOf(to);
        }

        /** The mapped value of {@code x} in [0,1]. */
        public double apply(double x) {
            int n = from.size();
            for (int i = 1; i < n; i++) {
                double right = from.get(i);
                if (x <= right) {
                    double left = from.get(i - 1);
                    double t = (x - left) / (right - left);
                    return to.get(i - 1) + Math.max(0, t) * (to.get(i) - to.get(i - 1));
                }
            }
            return to.get(n - 1);
        }
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
