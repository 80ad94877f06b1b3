package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default (learned) model sends the seed's everyday requests below the haiku threshold (0.30) and its work —
 * reports, creative writing, legal questions, code — above the middle of the sonnet band, in English and Chinese; the
 * prompts are {@link SeedExamplesTest}'s, none of them among the calibration anchors.
 */
class SeedTiersTest {

    private static final ComplexityScorer SCORER = ComplexityScorer.defaultScorer();
    private static final double HAIKU = 0.30;

    @ParameterizedTest
    @MethodSource({"dev.zerolayer.routing.complexity.SeedExamplesTest#chitChat",
            "dev.zerolayer.routing.complexity.SeedExamplesTest#customerService"})
    void everydayRequestsStayOnTheFirstTier(String prompt) {
        assertThat(SCORER.score(prompt).score()).isLessThanOrEqualTo(HAIKU);
    }

    @ParameterizedTest
    @MethodSource("dev.zerolayer.routing.complexity.SeedExamplesTest#lookups")
    void lookupsScoreLow(String prompt) {
        assertThat(SCORER.score(prompt).score()).isLessThan(0.35);
    }

    @ParameterizedTest
    @MethodSource({"dev.zerolayer.routing.complexity.SeedExamplesTest#reports",
            "dev.zerolayer.routing.complexity.SeedExamplesTest#creative",
            "dev.zerolayer.routing.complexity.SeedExamplesTest#legal"})
    void writingAndLegalWorkScoreAboveTheSonnetBandsMiddle(String prompt) {
        assertThat(SCORER.score(prompt).score()).isBetween(0.55, 0.95);
    }

    @ParameterizedTest
    @MethodSource("codeRequests")
    void codeScoresHigh(String prompt) {
        assertThat(SCORER.score(prompt).score()).isBetween(0.65, 0.95);
    }

    static java.util.stream.Stream<String> codeRequests() {
        return SeedExamplesTest.codeAndMaths().map(arguments -> (String) arguments.get()[0])
                .filter(prompt -> prompt.matches("(?s).*(Java|Python|```).*"));
    }

    @ParameterizedTest
    @MethodSource("dev.zerolayer.routing.complexity.SeedExamplesTest#vague")
    void vagueInstructionsKeepTheirBand(Conversation conversation) {
        ComplexityScore score = SCORER.score(conversation);
        assertThat(score.score()).isBetween(VagueBand.FLOOR, VagueBand.CEILING);
        assertThat(score.rules()).containsExactly(VagueBand.RULE);
    }

    @org.junit.jupiter.api.Test
    void theScoreMapKeepsTheOrderOfTheModelsOutput() {
        ComplexityScore chat = SCORER.score("Hi there, how are you doing?");
        ComplexityScore code = SCORER.score("Write a Java method that checks whether a binary tree is balanced.");
        assertThat(SCORER.model().scoreMap()).isNotNull();
        assertThat(chat.modelScore()).isLessThan(code.modelScore());
        assertThat(SCORER.model().scoreMap().apply(0)).isZero();
        assertThat(SCORER.model().scoreMap().apply(1)).isEqualTo(1.0);
    }
}
