package dev.zerolayer.complexity.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.complexity.scoring.InvalidInputException;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The baseline's inputs: proposed thresholds and target mixes are checked; the score distribution. */
class BaselineInputsTest {

    private final PolicyDocument policy = PolicyDocument.defaults();

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
}
