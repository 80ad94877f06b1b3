package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A model with an encoder part: its buckets weigh the newest user turn's n-grams, it is checked, and it is data. */
class LearnedModelTest {

    private static final List<String> PROMPTS = List.of(
            "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many "
                    + "clips did Natalia sell altogether in April and May?",
            "Which of the following is a function of the Golgi apparatus? A. protein synthesis B. packaging of "
                    + "proteins C. ATP production D. DNA replication",
            "Write a haiku about autumn rain.",
            "用 Python 实现快速排序，并分析时间复杂度。");

    private static ComplexityModel withBuckets(double intercept, byte[] buckets, double scale) {
        int bits = Integer.numberOfTrailingZeros(buckets.length);
        return new ComplexityModel("evt", Instant.EPOCH, 1, "ngram-test-1", "cl100k_base", intercept, Map.of(),
                new ComplexityModel.Ngrams(HashedNgrams.ENCODER, bits, scale,
                        Base64.getEncoder().encodeToString(buckets)));
    }

    @Test
    void theBucketsOfTheNewestUserTurnMoveTheScore() {
        HashedNgrams ngrams = new HashedNgrams(8);
        String prompt = "prove the theorem";
        byte[] buckets = new byte[256];
        for (int index : ngrams.features(prompt).indices()) {
            buckets[index] = 100;
        }
        ComplexityScorer scorer = ComplexityScorer.withModel(withBuckets(-2, buckets, 0.01));

        ComplexityScore score = scorer.score(prompt);

        double expected = 100 * 0.01 * ngrams.features(prompt).indices().length * ngrams.features(prompt).value();
        assertThat(score.modelScore()).isCloseTo(ComplexityScorer.sigmoid(-2 + expected), within(1e-6));
        assertThat(score.drivers()).extracting(Contribution::feature).contains(ComplexityScorer.NGRAMS_DRIVER);
        assertThat(scorer.scoreValue(Conversation.ofUser(prompt))).isCloseTo(score.score(), within(1e-12));
        // an earlier turn with the same words adds nothing: only the newest user turn is read
        Conversation older = new Conversation("", List.of(Turn.user(prompt), Turn.assistant("ok"),
                Turn.user("thanks")));
        assertThat(scorer.score(older).modelScore()).isLessThan(score.modelScore());
        assertThat(scorer.score("nothing in common here").modelScore()).isLessThan(score.modelScore());
    }

    @Test
    void anEncoderTheServicesDoNotHaveIsRefused() {
        ComplexityModel model = new ComplexityModel("evt", Instant.EPOCH, 1, "e5-1", "cl100k_base", 0, Map.of(),
                new ComplexityModel.Ngrams("e5-small-v2", 4, 1, Base64.getEncoder().encodeToString(new byte[16])));
        assertThatThrownBy(() -> ComplexityScorer.withModel(model)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("e5-small-v2").hasMessageContaining(HashedNgrams.ENCODER);
    }

    @Test
    void bucketsMustMatchTheirCount() {
        String fifteen = Base64.getEncoder().encodeToString(new byte[15]);
        assertThatThrownBy(() -> new ComplexityModel.Ngrams(HashedNgrams.ENCODER, 4, 1, fifteen))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> new ComplexityModel.Ngrams(HashedNgrams.ENCODER, 4, 1, "not base64!"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("base64");
        assertThatThrownBy(() -> new ComplexityModel.Ngrams(HashedNgrams.ENCODER, 30, 1, fifteen))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("bits");
        assertThatThrownBy(() -> new ComplexityModel.Ngrams(HashedNgrams.ENCODER, 4, Double.NaN, fifteen))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("scale");
    }

    @Test
    void quantisedBucketsKeepTheirWeightsWithinOneStep() {
        double[] weights = {0.5, -0.25, 0.0, 0.125, -0.5, 0.3, 0.01, -0.01, 0, 0, 0, 0, 0, 0, 0, 0.49};
        ComplexityModel.Ngrams ngrams = ComplexityModel.Ngrams.quantised(HashedNgrams.ENCODER, 4, weights);
        float[] back = ngrams.bucketWeights();
        for (int i = 0; i < weights.length; i++) {
            assertThat((double) back[i]).isCloseTo(weights[i], within(ngrams.scale() / 2 + 1e-6));
        }
    }

    @Test
    void theShippedLearnedModelIsTheDefaultLoadsRoundTripsAndIgnoresEmojiAndWhitespace() {
        ComplexityModel learned = ComplexityModels.builtIn();
        assertThat(ComplexityScorer.defaultScorer().model()).isEqualTo(learned);
        assertThat(learned.ngrams()).isNotNull();
        assertThat(learned.scoreMap()).isNotNull();
        assertThat(learned.ngrams().encoder()).isEqualTo(HashedNgrams.ENCODER);
        assertThat(ComplexityModels.fromJson(EventCodec.encode(learned))).isEqualTo(learned);
        ComplexityScorer scorer = ComplexityScorer.withModel(learned);
        String emoji = "\uD83D\uDE00\uD83D\uDE80\u2728".repeat(34);
        for (String prompt : PROMPTS) {
            double score = scorer.score(prompt).score();
            assertThat(scorer.score(emoji + prompt).score()).as(prompt).isCloseTo(score, within(1e-9));
            assertThat(scorer.score("\n\n  " + prompt + "\n\t ").score()).as(prompt).isCloseTo(score, within(1e-9));
        }
    }
}
