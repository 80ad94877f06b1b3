package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The complexity model is data: the built-in one loads, a published one swaps in, a malformed one is refused. */
class ComplexityModelsTest {

    private static ComplexityModel model(String version, double intercept, Map<String, Double> weights) {
        return new ComplexityModel("evt-" + version, Instant.parse("2026-01-01T00:00:00Z"), 1, version, "cl100k_base",
                intercept, weights);
    }

    @Test
    void theBuiltInModelLoadsAndNamesOnlyKnownFeatures() {
        ComplexityModel builtIn = ComplexityModels.builtIn();
        assertThat(builtIn.modelVersion()).isNotBlank();
        assertThat(builtIn.tokenizerEncoding()).isEqualTo("cl100k_base");
        assertThat(ComplexityModels.knownFeatureIds()).containsAll(builtIn.weights().keySet());
        assertThat(ComplexityScorer.defaultScorer().modelVersion()).isEqualTo(builtIn.modelVersion());
    }

    @Test
    void theBuiltInModelKeepsEveryWeightOnItsDesignedSide() {
        ComplexityModels.builtIn().weights().forEach((id, weight) -> {
            int direction = Feature.byId(id).orElseThrow().direction();
            assertThat(weight * direction).as(id).isGreaterThanOrEqualTo(0.0);
        });
    }

    @Test
    void aPublishedModelSwapsIn() {
        ComplexityScorer flat = ComplexityScorer.withModel(model("flat-1", 0.0, Map.of()));
        ComplexityScorer legalHeavy = ComplexityScorer.withModel(model("legal-1", -2.0, Map.of("legal", 6.0)));
        String prompt = "Is this clause of the lease contract enforceable?";
        assertThat(flat.score(prompt).score()).isEqualTo(0.5);
        assertThat(flat.score(prompt).modelVersion()).isEqualTo("flat-1");
        assertThat(legalHeavy.score(prompt).score()).isGreaterThan(0.95);
        assertThat(legalHeavy.score(prompt).drivers().get(0).feature()).isEqualTo("legal");
        assertThat(ComplexityScorer.defaultScorer().score(prompt).score()).isBetween(0.5, 0.95);
    }

    @Test
    void unknownFeatureNamesAreRefusedAtLoad() {
        Map<String, Double> weights = new HashMap<>(Map.of("legal", 1.0, "sentiment", 0.5, "emojis", 0.1));
        assertThatThrownBy(() -> ComplexityScorer.withModel(model("bad-1", 0.0, weights)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[emojis, sentiment]");
    }

    @Test
    void unknownTokenizerEncodingsAreRefused() {
        ComplexityModel model = new ComplexityModel("evt", Instant.EPOCH, 1, "v", "gpt2_base", 0.0, Map.of());
        assertThatThrownBy(() -> ComplexityScorer.withModel(model)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gpt2_base");
    }

    @Test
    void aModelRoundTripsThroughItsJsonEventForm() {
        ComplexityModel model = model("json-1", -0.5, Map.of("code_terms", 1.25, "plain", -0.75));
        byte[] json = EventCodec.encode(model);
        ComplexityModel back = ComplexityModels.fromJson(json);
        assertThat(back).isEqualTo(model);
        String text = new String(json, StandardCharsets.UTF_8).replace("\"plain\"", "\"plainness\"");
        assertThatThrownBy(() -> ComplexityModels.fromJson(text.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plainness");
    }

    @Test
    void theVagueBandHoldsWhateverTheModelSays() {
        ComplexityScorer low = ComplexityScorer.withModel(model("low-1", -10.0, Map.of()));
        ComplexityScorer high = ComplexityScorer.withModel(model("high-1", 10.0, Map.of()));
        assertThat(low.score("make it better").score()).isEqualTo(VagueBand.FLOOR);
        assertThat(high.score("帮我弄得好一点").score()).isEqualTo(VagueBand.CEILING);
        assertThat(high.score("帮我弄得好一点").modelScore()).isGreaterThan(0.99);
    }
}
