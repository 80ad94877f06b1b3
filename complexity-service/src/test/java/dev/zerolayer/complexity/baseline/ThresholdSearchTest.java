package dev.zerolayer.complexity.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.complexity.scoring.InvalidInputException;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tier mix at given thresholds, the thresholds for a target mix, threshold checks and the score distribution. */
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

    @Test
    void thresholdsMustBeKnownInRangeAndOrdered() {
        assertThat(TierTables.checked(policy, Map.of("haiku", 0.2), "thresholds"))
                .containsExactly(Map.entry("haiku", 0.2), Map.entry("sonnet", 0.6));
        assertThatThrownBy(() -> TierTables.checked(policy, Map.of("haiku", 0.7), "thresholds"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("thresholds.sonnet:")
                .hasMessageContaining("must not decrease");
        assertThatThrownBy(() -> TierTables.checked(policy, Map.of("haiku", 1.5), "thresholds"))
                .hasMessageStartingWith("thresholds.haiku: must be a number in [0,1]");
        assertThatThrownBy(() -> TierTables.checked(policy, Map.of("opus", 0.9), "thresholds"))
                .hasMessageStartingWith("thresholds.opus: not a tier with a complexity threshold");
    }

    @Test
    void targetMixMustNameKnownTiersAndSumToOne() {
        var mapper = dev.zerolayer.contracts.codec.EventCodec.mapper();
        assertThat(Baseline.targetMix(policy, mapper.readTree("{\"opus\":0.5,\"haiku\":0.5}")))
                .containsExactly(Map.entry("haiku", 0.5), Map.entry("sonnet", 0.0), Map.entry("opus", 0.5));
        assertThatThrownBy(() -> Baseline.targetMix(policy, mapper.readTree("{\"haiku\":0.5}")))
                .hasMessageStartingWith("targetMix: shares must sum to 1");
        assertThatThrownBy(() -> Baseline.targetMix(policy, mapper.readTree("{\"gpt\":1.0}")))
                .hasMessageStartingWith("targetMix.gpt: unknown tier");
        assertThatThrownBy(() -> Baseline.targetMix(policy, mapper.readTree("{\"haiku\":\"x\"}")))
                .hasMessageStartingWith("targetMix.haiku: must be a number");
    }

    @Test
    void distributionHasHistogramAndInterpolatedPercentiles() {
        double[] scores = {0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 1.0};
        ScoreDistribution distribution = ScoreDistribution.of(scores, 10);

        assertThat(distribution.histogram()).extracting(ScoreDistribution.Bin::count)
                .containsExactly(1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
        assertThat(distribution.percentiles().get("p50")).isCloseTo(0.5, within(1e-9));
        assertThat(distribution.percentiles().get("p90")).isCloseTo(0.865, within(1e-9));
        assertThat(distribution.min()).isEqualTo(0.05);
        assertThat(distribution.max()).isEqualTo(1.0);
        assertThat(distribution.mean()).isCloseTo(0.505, within(1e-9));
        assertThat(ScoreDistribution.of(new double[0], 10).count()).isZero();
    }

    private static Map<String, Double> target(double haiku, double sonnet, double opus) {
        Map<String, Double> target = new LinkedHashMap<>();
        target.put("haiku", haiku);
        target.put("sonnet", sonnet);
        target.put("opus", opus);
        return target;
    }
}
