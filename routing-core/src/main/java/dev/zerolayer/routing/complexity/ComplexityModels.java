package dev.zerolayer.routing.complexity;

import com.knuddels.jtokkit.api.EncodingType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.TreeSet;

/**
 * Loads and checks complexity models: a model is usable only when every weight names a known {@link Feature}, its
 * tokenizer encoding exists and its encoder, if any, is one this code has; the built-in (default) model is the resource
 * {@value #DEFAULT_RESOURCE}.
 */
public final class ComplexityModels {

    /** The default: the learned model (lexical features, hashed n-grams and a score map; {@code ComplexityExperiment}). */
    public static final String DEFAULT_RESOURCE = "/complexity-model-learned.json";
    /** The lexical model (named features only; {@code TrainComplexityModel}), the learned model's base. */
    public static final String LEXICAL_RESOURCE = "/complexity-model-lexical.json";

    private ComplexityModels() {
    }

    /** The built-in (default) model shipped in routing-core: the learned model. */
    public static ComplexityModel builtIn() {
        return resource(DEFAULT_RESOURCE);
    }

    /** The lexical model shipped in routing-core (named features only), ready to upload. */
    public static ComplexityModel lexical() {
        return resource(LEXICAL_RESOURCE);
    }

    private static ComplexityModel resource(String name) {
        try (InputStream in = ComplexityModels.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing built-in complexity model " + name);
            }
            return check(EventCodec.decode(in.readAllBytes(), ComplexityModel.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    /** Decodes a model from its JSON event form and checks it. */
    public static ComplexityModel fromJson(byte[] json) {
        return check(EventCodec.decode(json, ComplexityModel.class));
    }

    /** The model itself when usable; otherwise an {@link IllegalArgumentException} naming what is wrong. */
    public static ComplexityModel check(ComplexityModel model) {
        if (model == null) {
            throw new IllegalArgumentException("missing complexity model");
        }
        TreeSet<String> unknown = new TreeSet<>();
        model.weights().keySet().forEach(name -> {
            if (Feature.byId(name).isEmpty()) {
                unknown.add(name);
            }
        });
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("complexity model " + model.modelVersion() + " has unknown features "
                    + unknown + "; known: " + knownFeatureIds());
        }
        if (model.ngrams() != null && !HashedNgrams.ENCODER.equals(model.ngrams().encoder())) {
            throw new IllegalArgumentException("complexity model " + model.modelVersion() + " needs the encoder '"
                    + model.ngrams().encoder() + "'; this service has " + List.of(HashedNgrams.ENCODER));
        }
        if (EncodingType.fromName(model.tokenizerEncoding().trim()).isEmpty()) {
            throw new IllegalArgumentException("complexity model " + model.modelVersion()
                    + " names an unknown tokenizer encoding '" + model.tokenizerEncoding() + "'");
        }
        return model;
    }

    public static List<String> knownFeatureIds() {
        return java.util.Arrays.stream(Feature.values()).map(Feature::id).toList();
    }
}
