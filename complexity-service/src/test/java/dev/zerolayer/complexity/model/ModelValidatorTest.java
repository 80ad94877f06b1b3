package dev.zerolayer.complexity.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Uploads pass only with the contract's shape, the scorer's features, sane finite numbers, a new version and AUC above the bar. */
class ModelValidatorTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    /** The base of the uploads: the lexical model (named features only). */
    private static final ComplexityModel BUILT_IN = ComplexityModels.lexical();
    private final ModelValidator validator = new ModelValidator(SanitySet.builtIn(),
            new ModelValidator.Limits(0.6, 20, 20, true));

    @Test
    void theBuiltInModelRanksTheSanitySetWellAboveTheBar() {
        double auc = SanitySet.builtIn().auc(ComplexityScorer.defaultScorer());
        assertThat(SanitySet.builtIn().size()).isGreaterThanOrEqualTo(40);
        assertThat(SanitySet.builtIn().strongCount()).isEqualTo(20);
        assertThat(auc).isGreaterThan(0.9);
    }

    @Test
    void acceptsAValidModelWithANewVersionAndStampsAFreshEnvelope() {
        ModelValidator.Accepted accepted = validator.validate(upload(m -> m.put("modelVersion", "cx-test-2")),
                BUILT_IN.modelVersion(), NOW);

        assertThat(accepted.model().modelVersion()).isEqualTo("cx-test-2");
        assertThat(accepted.model().weights()).isEqualTo(BUILT_IN.weights());
        assertThat(accepted.model().occurredAt()).isEqualTo(NOW);
        assertThat(accepted.model().eventId()).isNotEqualTo(BUILT_IN.eventId());
        assertThat(accepted.sanityAuc()).isGreaterThan(0.9);
    }

    @Test
    void refusesTheActiveVersion() {
        assertRejected(upload(m -> { }), "modelVersion:", "active model's version");
    }

    @Test
    void refusesWrongDimensions() {
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); weights(m).remove("length"); }), "weights:",
                "missing [length]");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); weights(m).put("sparkle", 0.1); }),
                "weights.sparkle:", "unknown feature");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.put("weights", 3); }), "weights:",
                "must be an object");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.remove("weights"); }), "weights:", "required");
    }

    @Test
    void refusesNonFiniteAndOutOfRangeNumbers() {
        String nan = new String(upload(m -> m.put("modelVersion", "v-nan")), StandardCharsets.UTF_8)
                .replace("\"legal\":1.0199", "\"legal\":NaN");
        assertThat(nan).contains("NaN");
        assertRejected(nan.getBytes(StandardCharsets.UTF_8), "weights.legal:", "finite");
        String infinite = new String(upload(m -> m.put("modelVersion", "v-inf")), StandardCharsets.UTF_8)
                .replace("\"intercept\":0.1155", "\"intercept\":1e400");
        assertRejected(infinite.getBytes(StandardCharsets.UTF_8), "intercept:", "finite");
        assertRejected(upload(m -> { m.put("modelVersion", "v-big"); weights(m).put("legal", 25.0); }),
                "weights.legal:", "at most 20");
        assertRejected(upload(m -> { m.put("modelVersion", "v-str"); weights(m).put("legal", "1"); }),
                "weights.legal:", "must be a number");
    }

    @Test
    void refusesAWeightOnTheWrongSideOfItsFeature() {
        assertRejected(upload(m -> { m.put("modelVersion", "v-dir"); weights(m).put("chitchat", 1.0); }),
                "weights.chitchat:", "<= 0");
    }

    @Test
    void refusesAModelNoBetterThanRandom() {
        // every weight 0: one score for every prompt, AUC exactly 0.5
        assertRejected(upload(m -> {
            m.put("modelVersion", "v-flat");
            weights(m).propertyNames().stream().toList().forEach(name -> weights(m).put(name, 0.0));
        }), "weights:", "AUC 0.500");
        // long words pushed down hard: ranks the technical prompts below the chit-chat
        assertRejected(upload(m -> {
            m.put("modelVersion", "v-inverse");
            weights(m).propertyNames().stream().toList().forEach(name -> weights(m).put(name, 0.0));
            weights(m).put("long_words", -20.0);
            weights(m).put("choices", 0.0);
        }), "weights:", "at least 0.60");
    }

    @Test
    void refusesThresholdsUnknownFieldsAndBadEnvelopes() {
        assertRejected(upload(m -> { m.put("modelVersion", "v-th"); m.putObject("thresholds").put("haiku", 0.3); }),
                "thresholds:", "tierTable");
        assertRejected(upload(m -> { m.put("modelVersion", "v-x"); m.put("weigths", 1); }), "weigths:",
                "unknown field");
        assertRejected(upload(m -> { m.put("modelVersion", "v-s"); m.put("schemaVersion", 2); }), "schemaVersion:",
                "must be 1");
        assertRejected(upload(m -> { m.put("modelVersion", "v-t"); m.put("tokenizerEncoding", "gpt9"); }),
                "tokenizerEncoding:", "cl100k_base");
        assertRejected(upload(m -> m.put("modelVersion", "bad version with spaces")), "modelVersion:", "letters");
        assertRejected(upload(m -> m.remove("modelVersion")), "modelVersion:", "required");
    }

    @Test
    void refusesBodiesThatAreNotAJsonObject() {
        assertRejected(new byte[0], "body:", "empty");
        assertRejected("{\"modelVersion\":".getBytes(StandardCharsets.UTF_8), "body:", "not valid JSON");
        assertRejected("[1,2]".getBytes(StandardCharsets.UTF_8), "body:", "JSON object");
        assertRejected(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, 0x7b}, "body:", "UTF-8");
    }

    @Test
    void aucCountsTiesAsHalfAndNeedsBothClasses() {
        assertThat(Auc.of(new double[] {0.1, 0.2, 0.8, 0.9}, new boolean[] {false, false, true, true})).isEqualTo(1.0);
        assertThat(Auc.of(new double[] {0.1, 0.2, 0.8, 0.9}, new boolean[] {true, true, false, false})).isEqualTo(0.0);
        assertThat(Auc.of(new double[] {0.5, 0.5, 0.5, 0.5}, new boolean[] {true, false, true, false})).isEqualTo(0.5);
        assertThat(Auc.of(new double[] {0.1, 0.5, 0.5, 0.9}, new boolean[] {false, true, false, true}))
                .isEqualTo(0.875);
        assertThatThrownBy(() -> Auc.of(new double[] {0.1}, new boolean[] {true}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsTheLearnedModelWithItsEncoderAndRefusesBrokenEncoderParts() {
        ComplexityModel learned = ComplexityModels.builtIn();
        ModelValidator.Accepted accepted = validator.validate(EventCodec.encode(learned), BUILT_IN.modelVersion(),
                NOW);
        assertThat(accepted.model().ngrams()).isEqualTo(learned.ngrams());
        assertThat(accepted.model().scoreMap()).isEqualTo(learned.scoreMap());
        assertThat(accepted.sanityAuc()).isGreaterThan(0.6);

        ObjectNode ngrams = EventCodec.mapper().createObjectNode().put("encoder", "e5-small-v2").put("bits", 4)
                .put("scale", 0.1).put("weights", "AAAAAAAAAAAAAAAAAAAAAA==");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.set("ngrams", ngrams.deepCopy()); }),
                "ngrams.encoder:", "e5-small-v2");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.set("ngrams", ngrams.deepCopy()
                .put("encoder", "hashed-ngrams-v1").put("bits", 5)); }), "ngrams.weights", "32 bytes");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.set("ngrams", ngrams.deepCopy().remove(
                java.util.List.of("scale"))); }), "ngrams.scale:", "required");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.put("ngrams", "x"); }), "ngrams:",
                "must be an object");
    }

    @Test
    void refusesBrokenScoreMaps() {
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.put("scoreMap", "x"); }), "scoreMap:",
                "arrays 'from' and 'to'");
        assertRejected(upload(m -> { m.put("modelVersion", "v2"); m.putObject("scoreMap").put("from", 1)
                .putArray("to"); }), "scoreMap:", "arrays 'from' and 'to'");
        assertRejected(upload(m -> {
            m.put("modelVersion", "v2");
            ObjectNode map = m.putObject("scoreMap");
            map.putArray("from").add(0.0).add(0.6).add(0.4).add(1.0);
            map.putArray("to").add(0.0).add(0.2).add(0.3).add(1.0);
        }), "scoreMap.from", "rise strictly");
        assertRejected(upload(m -> {
            m.put("modelVersion", "v2");
            ObjectNode map = m.putObject("scoreMap");
            map.putArray("from").add(0.0).add("half").add(1.0);
            map.putArray("to").add(0.0).add(0.2).add(1.0);
        }), "scoreMap.from:", "finite numbers");
        ModelValidator.Accepted mapped = validator.validate(upload(m -> {
            m.put("modelVersion", "v2");
            ObjectNode map = m.putObject("scoreMap");
            map.putArray("from").add(0.0).add(0.5).add(1.0);
            map.putArray("to").add(0.0).add(0.3).add(1.0);
        }), BUILT_IN.modelVersion(), NOW);
        assertThat(mapped.model().scoreMap().apply(0.5)).isEqualTo(0.3);
    }

    private void assertRejected(byte[] body, String field, String reason) {
        assertThatThrownBy(() -> validator.validate(body, BUILT_IN.modelVersion(), NOW))
                .isInstanceOf(InvalidModelException.class)
                .hasMessageStartingWith(field)
                .hasMessageContaining(reason);
    }

    private static ObjectNode weights(ObjectNode model) {
        return (ObjectNode) model.get("weights");
    }

    /** The built-in model's JSON, changed by {@code change}. */
    static byte[] upload(Consumer<ObjectNode> change) {
        ObjectNode model = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(BUILT_IN));
        Map<String, Double> ordered = new LinkedHashMap<>(BUILT_IN.weights());
        ObjectNode weights = model.putObject("weights");
        ordered.forEach(weights::put);
        change.accept(model);
        return EventCodec.mapper().writeValueAsBytes(model);
    }
}
