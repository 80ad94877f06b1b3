package dev.zerolayer.routing.complexity;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Scores how much model a conversation needs: σ(intercept + Σ weight × feature over the {@link Feature}s + the
 * model's n-gram weights · the newest user turn's {@link HashedNgrams}), through the model's score map if it has one,
 * then the {@link VagueBand} rule; immutable and
 * thread-safe, so a new model is swapped in by building a new scorer.
 */
public final class ComplexityScorer {

    private static final class DefaultHolder {
        static final ComplexityScorer INSTANCE = withModel(ComplexityModels.builtIn());
    }

    private final ComplexityModel model;
    private final double intercept;
    private final double[] weights;
    private final HashedNgrams ngrams;
    private final float[] bucketWeights;

    /** The name of the n-gram part among a score's drivers. */
    public static final String NGRAMS_DRIVER = "ngrams";

    private ComplexityScorer(ComplexityModel model) {
        this.model = model;
        this.intercept = model.intercept();
        this.weights = new double[Feature.COUNT];
        model.weights().forEach((name, weight) -> weights[Feature.byId(name).orElseThrow().ordinal()] = weight);
        this.ngrams = model.ngrams() == null ? null : new HashedNgrams(model.ngrams().bits());
        this.bucketWeights = model.ngrams() == null ? null : model.ngrams().bucketWeights();
    }

    /** The scorer of the built-in model (loaded once). */
    public static ComplexityScorer defaultScorer() {
        return DefaultHolder.INSTANCE;
    }

    /** A scorer for a published model; fails with {@link IllegalArgumentException} on unknown feature names. */
    public static ComplexityScorer withModel(ComplexityModel model) {
        return new ComplexityScorer(ComplexityModels.check(model));
    }

    public ComplexityModel model() {
        return model;
    }

    public String modelVersion() {
        return model.modelVersion();
    }

    /** Score and explanation of a single user prompt. */
    public ComplexityScore score(String prompt) {
        return score(Conversation.ofUser(prompt));
    }

    /** Score and explanation of a conversation. */
    public ComplexityScore score(Conversation conversation) {
        double[] values = features(conversation);
        double logit = intercept;
        List<Contribution> drivers = new ArrayList<>();
        Map<String, Double> named = new LinkedHashMap<>();
        for (Feature feature : Feature.values()) {
            double value = values[feature.ordinal()];
            double weight = weights[feature.ordinal()];
            named.put(feature.id(), value);
            logit += value * weight;
            if (value != 0.0 && weight != 0.0) {
                drivers.add(new Contribution(feature.id(), value, weight));
            }
        }
        if (ngrams != null) {
            double part = ngramLogit(conversation);
            logit += part;
            drivers.add(new Contribution(NGRAMS_DRIVER, part, 1.0));
        }
        drivers.sort(Comparator.comparingDouble((Contribution c) -> -Math.abs(c.logit())));
        double modelScore = mapped(sigmoid(logit));
        double score = modelScore;
        List<String> rules = List.of();
        if (VagueBand.applies(values[Feature.VAGUE.ordinal()])) {
            score = VagueBand.apply(modelScore);
            rules = List.of(VagueBand.RULE);
        }
        return new ComplexityScore(score, modelScore, model.modelVersion(), named, drivers, rules);
    }

    /** The score alone, without building the explanation (the request hot path). */
    public double scoreValue(Conversation conversation) {
        return scoreFeatures(features(conversation), ngrams == null ? 0 : ngramLogit(conversation));
    }

    /** The score of an already computed feature vector (in {@link Feature} order), for a model without n-grams. */
    public double scoreFeatures(double[] values) {
        if (ngrams != null) {
            throw new IllegalStateException("model " + model.modelVersion() + " reads n-grams: score the text");
        }
        return scoreFeatures(values, 0);
    }

    /** The n-gram part of the logit: the bucket weights summed over the newest user turn's n-grams. */
    private double ngramLogit(Conversation conversation) {
        int latest = conversation.latestUserIndex();
        if (latest < 0) {
            return 0;
        }
        return ngrams.dot(conversation.turns().get(latest).text(), bucketWeights);
    }

    private double scoreFeatures(double[] values, double ngramLogit) {
        Objects.requireNonNull(values, "values");
        if (values.length != Feature.COUNT) {
            throw new IllegalArgumentException("expected " + Feature.COUNT + " feature values, got " + values.length);
        }
        double logit = intercept;
        for (int i = 0; i < values.length; i++) {
            logit += values[i] * weights[i];
        }
        logit += ngramLogit; // in the order score(…) adds them, so both give the same double
        double score = mapped(sigmoid(logit));
        return VagueBand.applies(values[Feature.VAGUE.ordinal()]) ? VagueBand.apply(score) : score;
    }

    /** The model's score map applied to its logistic output (the output itself when the model has none). */
    private double mapped(double probability) {
        return model.scoreMap() == null ? probability : model.scoreMap().apply(probability);
    }

    /** The feature vector of a conversation, in {@link Feature} order (for training and inspection). */
    public static double[] features(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        return FeatureExtractor.extract(conversation);
    }

    /** The feature ids, in the order of {@link #features(Conversation)}. */
    public static List<String> featureIds() {
        return ComplexityModels.knownFeatureIds();
    }

    static double sigmoid(double logit) {
        if (logit >= 0) {
            return 1.0 / (1.0 + Math.exp(-logit));
        }
        double e = Math.exp(logit);
        return e / (1.0 + e);
    }
}
