package dev.zerolayer.routing.thresholds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tier mix at given thresholds and the thresholds for a target mix. */
class ThresholdSearchTest {

    private final PolicyDocument policy = PolicyDocument.defaults();

    @Test
    void mixAtTheDefaultThresholdsFollowsTheTierTableAndItsTokenLimits() {
        double[] scores = {0.10, 0.25, 0.31, 0.50, 0.70, 0.97, 0.10, 0.10};
        int[] tokens = {100, 100, 100, 100, 100, 100, 1_000, 3_000};
        // haiku: 0.10, 0.25 | sonnet: 0.31, 0.50, the long 0.10, and 0.97 (opus by table, one down above 0.95)
        // opus: 0.70 and the 3,000-token 0.10
        assertThat(TierMix.of(policy, tokens, scores)).containsExactly(Map.entry("haiku", 2 / 8.0),
                Map.entry("sonnet", 4 / 8.0), Map.entry("opus", 2 / 8.0));
    }

    @Test
    void findsThresholdsThatGiveTheTargetMixOnUniformScores() {
        double[] scores = new double[1_000];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (i + 0.5) / scores.length * 0.95;
        }
        int[] tokens = new int[scores.length];
        Arrays.fill(tokens, 100);

        ThresholdSearch.Result result = ThresholdSearch.search(policy, tokens, scores,
                target(0.5, 0.35, 0.15));

        assertThat(result.mix().get("haiku")).isCloseTo(0.5, within(0.003));
        assertThat(result.mix().get("sonnet")).isCloseTo(0.35, within(0.003));
        assertThat(result.mix().get("opus")).isCloseTo(0.15, within(0.003));
        assertThat(result.thresholds().get("haiku")).isCloseTo(0.475, within(0.002));
        assertThat(result.thresholds().get("sonnet")).isCloseTo(0.8075, within(0.002));
        assertThat(result.maxDeviation()).isLessThan(0.003);
    }

    @Test
    void approachesATargetTheTokenLimitsForbidAndSaysHowFarItIs() {
        double[] scores = new double[100];
        int[] tokens = new int[100];
        Random random = new Random(3);
        for (int i = 0; i < 100; i++) {
            scores[i] = random.nextDouble() * 0.9;
            tokens[i] = i < 40 ? 100 : 1_000; // 60 prompts are too long for haiku whatever their score
        }

        ThresholdSearch.Result result = ThresholdSearch.search(policy, tokens, scores, target(0.8, 0.2, 0.0));

        assertThat(result.mix().get("haiku")).isEqualTo(0.4);
        double longestShort = Arrays.stream(scores, 0, 40).max().orElseThrow();
        assertThat(result.thresholds().get("haiku")).isGreaterThanOrEqualTo(longestShort);
        // sonnet's threshold may not fall below haiku's, so every long prompt up to it is sonnet's
        assertThat(result.thresholds().get("sonnet")).isGreaterThanOrEqualTo(result.thresholds().get("haiku"));
        assertThat(result.maxDeviation()).isGreaterThanOrEqualTo(0.4);
    }

    @Test
    void searchIsFastEnoughForTheLargestBaseline() {
        double[] scores = new double[5_000];
        int[] tokens = new int[5_000];
        Random random = new Random(5);
        for (int i = 0; i < scores.length; i++) {
            scores[i] = random.nextDouble();
            tokens[i] = random.nextInt(3_000);
        }
        long start = System.nanoTime();
        ThresholdSearch.search(policy, tokens, scores, target(0.4, 0.4, 0.2));
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(10.0);
    }

    private static Map<String, Double> target(double haiku, double sonnet, double opus) {
        Map<String, Double> target = new LinkedHashMap<>();
        target.put("haiku", haiku);
        target.put("sonnet", sonnet);
        target.put("opus", opus);
        return target;
    }
}
