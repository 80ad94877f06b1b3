package dev.zerolayer.complexity.model;

import com.knuddels.jtokkit.api.EncodingType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Feature;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An uploaded complexity model is accepted only when it is the contract's JSON shape with a new, well-formed version, a
 * known tokenizer, exactly the scorer's features as weights, an encoder part (if any) of an encoder the services
 * have, a monotone score map (if any), every number finite and within range (and on its feature's designed side), and
 * it ranks the built-in sanity set better than random by the configured margin.
 */
public final class ModelValidator {

    /** Fields an upload may carry: the contract's fields (the envelope is replaced at publication). */
    static final Set<String> FIELDS = Set.of("eventId", "occurredAt", "schemaVersion", "modelVersion",
            "tokenizerEncoding", "intercept", "weights", "ngrams", "scoreMap");
    static final int MAX_VERSION_LENGTH = 100;
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:+-]*");
    // Non-numeric numbers (NaN, Infinity) are read so that they are refused with the field named, not as bad JSON.
    private static final JsonMapper LENIENT = EventCodec.mapper().rebuild()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /** Limits of the checks. */
    public record Limits(double minSanityAuc, double maxAbsWeight, double maxAbsIntercept,
            boolean enforceFeatureDirections) {
    }

    /** An accepted model, stamped for publication, with its AUC on the sanity set. */
    public record Accepted(ComplexityModel model, double sanityAuc) {
    }

    private final SanitySet sanitySet;
    private final Limits limits;

    public ModelValidator(SanitySet sanitySet, Limits limits) {
        this.sanitySet = sanitySet;
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    /**
     * Checks an upload against the active model's version and stamps it with a new event id and time.
     *
     * @throws InvalidModelException naming the first field that fails
     */
    public Accepted validate(byte[] body, String activeVersion, Instant now) {
        JsonNode root = parse(body);
        TreeSet<String> unknown = new TreeSet<>();
        root.propertyNames().forEach(name -> {
            if (!FIELDS.contains(name)) {
                unknown.add(name);
            }
        });
        if (unknown.contains("thresholds")) {
            throw new InvalidModelException("thresholds: tier thresholds are not part of the complexity model; they "
                    + "are the policy's tierTable (fallback-service, PUT /v1/policy); see POST /v1/complexity/baseline "
                    + "and GET /v1/complexity/calibration for proposed values");
        }
        if (!unknown.isEmpty()) {
            throw new InvalidModelException(unknown.first() + ": unknown field; a model has " + new TreeSet<>(FIELDS));
        }
        JsonNode schema = root.get("schemaVersion");
        if (schema != null && !schema.isNull() && (!schema.isIntegralNumber()
                || schema.asLong() != ComplexityModel.SCHEMA_VERSION)) {
            throw new InvalidModelException("schemaVersion: must be " + ComplexityModel.SCHEMA_VERSION);
        }
        String version = version(root.get("modelVersion"), activeVersion);
        String encoding = encoding(root.get("tokenizerEncoding"));
        double intercept = number(root.get("intercept"), "intercept", limits.maxAbsIntercept());
        Map<String, Double> weights = weights(root.get("weights"));
        ComplexityModel model = new ComplexityModel(EventChecks.newEventId(), now, ComplexityModel.SCHEMA_VERSION,
                version, encoding, intercept, weights, ngrams(root.get("ngrams")), scoreMap(root.get("scoreMap")));
        try {
            ComplexityModels.check(model);
        } catch (IllegalArgumentException e) {
            throw new InvalidModelException("ngrams.encoder: " + e.getMessage());
        }
        double auc = sanitySet.auc(ComplexityScorer.withModel(model));
        if (!(auc >= limits.minSanityAuc())) {
            throw new InvalidModelException(String.format(Locale.ROOT, "weights: the model ranks the built-in sanity "
                    + "set (%d prompts, %d need the strong model) with AUC %.3f; at least %.2f is required (random is "
                    + "0.50)", sanitySet.size(), sanitySet.strongCount(), auc, limits.minSanityAuc()));
        }
        return new Accepted(model, auc);
    }

    private static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new InvalidModelException("body: empty; expected a complexity model as a JSON object");
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw new InvalidModelException("body: not valid UTF-8");
        }
        JsonNode root;
        try {
            root = LENIENT.readTree(body);
        } catch (JacksonException e) {
            throw new InvalidModelException("body: not valid JSON" + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidModelException("body: must be a JSON object");
        }
        return root;
    }

    private static String version(JsonNode node, String activeVersion) {
        if (node == null || node.isNull()) {
            throw new InvalidModelException("modelVersion: required");
        }
        if (!node.isString() || node.stringValue().isBlank()) {
            throw new InvalidModelException("modelVersion: must be a non-empty string");
        }
        String version = node.stringValue();
        if (version.length() > MAX_VERSION_LENGTH || !VERSION.matcher(version).matches()) {
            throw new InvalidModelException("modelVersion: at most " + MAX_VERSION_LENGTH
                    + " characters of letters, digits and . _ : + -, starting with a letter or digit");
        }
        if (version.equals(activeVersion)) {
            throw new InvalidModelException("modelVersion: '" + version + "' is the active model's version; a new "
                    + "model needs a new version");
        }
        return version;
    }

    /** The optional encoder part: absent or null is a model of named features only. */
    private static ComplexityModel.Ngrams ngrams(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new InvalidModelException("ngrams: must be an object with encoder, bits, scale and weights");
        }
        for (String field : List.of("encoder", "bits", "scale", "weights")) {
            if (!node.hasNonNull(field)) {
                throw new InvalidModelException("ngrams." + field + ": required");
            }
        }
        if (!node.get("encoder").isString() || !node.get("weights").isString()) {
            throw new InvalidModelException("ngrams: encoder and weights must be strings (weights: base64)");
        }
        if (!node.get("bits").isIntegralNumber() || !node.get("scale").isNumber()) {
            throw new InvalidModelException("ngrams: bits must be an integer and scale a number");
        }
        try {
            return new ComplexityModel.Ngrams(node.get("encoder").stringValue(), node.get("bits").asInt(),
                    node.get("scale").asDouble(), node.get("weights").stringValue());
        } catch (InvalidEventException e) {
            throw new InvalidModelException(e.getMessage());
        }
    }

    /** The optional score map: absent or null is the logistic output as the score. */
    private static ComplexityModel.ScoreMap scoreMap(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        JsonNode from = node.get("from");
        JsonNode to = node.get("to");
        if (!node.isObject() || from == null || !from.isArray() || to == null || !to.isArray()) {
            throw new InvalidModelException("scoreMap: must be an object with arrays 'from' and 'to' (knots in [0,1])");
        }
        try {
            return new ComplexityModel.ScoreMap(numbers(from, "scoreMap.from"), numbers(to, "scoreMap.to"));
        } catch (InvalidEventException e) {
            throw new InvalidModelException(e.getMessage());
        }
    }

    private static List<Double> numbers(JsonNode array, String field) {
        List<Double> values = new java.util.ArrayList<>();
        for (JsonNode element : array) {
            if (!element.isNumber() || !Double.isFinite(element.asDouble())) {
                throw new InvalidModelException(field + ": must hold finite numbers only");
            }
            values.add(element.asDouble());
        }
        return values;
    }

    private static String encoding(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new InvalidModelException("tokenizerEncoding: required (e.g. " + TokenCounter.DEFAULT_ENCODING + ")");
        }
        if (!node.isString() || !TokenCounter.isKnownEncoding(node.stringValue())) {
            throw new InvalidModelException("tokenizerEncoding: unknown encoding; known: " + Arrays.stream(
                    EncodingType.values()).map(EncodingType::getName).toList());
        }
        return node.stringValue().trim();
    }

    private static double number(JsonNode node, String field, double maxAbs) {
        if (node == null || node.isNull()) {
            throw new InvalidModelException(field + ": required");
        }
        if (!node.isNumber()) {
            throw new InvalidModelException(field + ": must be a number");
        }
        double value = node.asDouble();
        if (!Double.isFinite(value)) {
            throw new InvalidModelException(field + ": must be a finite number, was " + value);
        }
        if (Math.abs(value) > maxAbs) {
            throw new InvalidModelException(String.format(Locale.ROOT, "%s: |%s| must be at most %s", field,
                    value, maxAbs));
        }
        return value;
    }

    private Map<String, Double> weights(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new InvalidModelException("weights: required");
        }
        if (!node.isObject()) {
            throw new InvalidModelException("weights: must be an object of feature name to weight");
        }
        List<String> expected = ComplexityScorer.featureIds();
        TreeSet<String> unknown = new TreeSet<>();
        node.propertyNames().forEach(name -> {
            if (!expected.contains(name)) {
                unknown.add(name);
            }
        });
        if (!unknown.isEmpty()) {
            throw new InvalidModelException("weights." + unknown.first() + ": unknown feature; the scorer's "
                    + expected.size() + " features are " + expected);
        }
        List<String> missing = expected.stream().filter(id -> !node.has(id)).toList();
        if (!missing.isEmpty()) {
            throw new InvalidModelException("weights: " + node.size() + " features given, the scorer has "
                    + expected.size() + "; missing " + missing);
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Feature feature : Feature.values()) {
            String field = "weights." + feature.id();
            double weight = number(node.get(feature.id()), field, limits.maxAbsWeight());
            if (limits.enforceFeatureDirections() && weight * feature.direction() < 0) {
                throw new InvalidModelException(field + ": must be " + (feature.direction() > 0 ? ">= 0" : "<= 0")
                        + " (" + feature.meaning() + ")");
            }
            weights.put(feature.id(), weight);
        }
        return weights;
    }
}
