package dev.zerolayer.router.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.routing.decision.PredictedTtft;
import dev.zerolayer.routing.ttft.TtftModel;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** Nodes start from their hardware prior, learn only from first bytes of the node predicted for, and report the error. */
class TtftLearnerTest {

    private static NodeRegistration node(String id, String profile) {
        return NodeRegistration.of(id, "sonnet", "sonnet-a100-40g", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 24, profile);
    }

    @Test
    void aNodeStartsFromItsProfilesPriorAndAnUnknownProfileFromTheGenericOne() {
        TtftLearner learner = new TtftLearner(new SimpleMeterRegistry());
        assertThat(learner.model(node("s-0", "A100-40Gx4"))).isEqualTo(TtftLearner.PRIORS.get("A100-40Gx4"));
        assertThat(learner.model(node("x-0", "TPU-v9"))).isEqualTo(TtftModel.generic());
    }

    @Test
    void learnsFromTheServedFirstByteOnlyAndRecordsTheError() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TtftLearner learner = new TtftLearner(meters);
        learner.model(node("s-0", "A100-40Gx4"));
        PredictedTtft predicted = new PredictedTtft("s-0", 0, 1_000, 0, 0, 0.1, 120.0);

        learner.observe(predicted, "s-1", false, 200_000_000L);      // another node served
        learner.observe(predicted, "s-0", true, 200_000_000L);       // after a bypass: TTFB includes other attempts
        learner.observe(predicted, null, false, -1);                 // no first byte
        assertThat(learner.observations("s-0")).isZero();

        learner.observe(predicted, "s-0", false, 200_000_000L);
        assertThat(learner.observations("s-0")).isEqualTo(1);
        DistributionSummary error = meters.get("zerolayer_ttft_prediction_error_ms").summary();
        assertThat(error.count()).isEqualTo(1);
        assertThat(error.totalAmount()).isCloseTo(80.0, within(1e-9));
        assertThat(meters.get("zerolayer_ttft_prediction_error_relative").summary().totalAmount())
                .isCloseTo(0.4, within(1e-9));
        // the model moved towards the observation
        assertThat(learner.model(node("s-0", "A100-40Gx4")).predictMs(0, 1_000, 0, 0, 0.1))
                .isGreaterThan(TtftLearner.PRIORS.get("A100-40Gx4").predictMs(0, 1_000, 0, 0, 0.1));
    }
}
