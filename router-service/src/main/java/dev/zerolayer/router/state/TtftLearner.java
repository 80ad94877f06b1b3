package dev.zerolayer.router.state;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.routing.decision.PredictedTtft;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.ttft.TtftModel;
import dev.zerolayer.routing.ttft.TtftPredictor;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * The router's per-node TTFT models: each node starts from its registration's hardware-profile prior, and learns from
 * every answer served by the first node tried (its TTFB against what the decision saw); the prediction error is the
 * metric {@code zerolayer_ttft_prediction_error_ms} (|predicted − observed|) and {@code ..._relative}. The router does
 * not yet track its requests awaiting a first byte per node, so the backlog features are 0 here and telemetry's queue
 * stands in for them.
 */
public class TtftLearner {

    /**
     * Priors of node-simulator's hardware profiles (docs/simulator.md: overhead, prefill rate, slots, 200 output
     * tokens at the single-stream decode rate held per slot); any other profile starts from {@link TtftModel#generic()}.
     */
    static final Map<String, TtftModel> PRIORS = Map.of(
            "A100-80Gx8", TtftModel.prior(25, 5_818, 32, 200 * 29.0),
            "A100-40Gx4", TtftModel.prior(8, 16_410.0 * 7 / 13, 24, 200 * 1000 / (75.0 * 8 / 13)),
            "L4x2", TtftModel.prior(10, 32_542.0 * (242.5 / 733.0) * 7 / 8, 16,
                    200 * 1000 / (2 * 300e9 * 0.77 / 8.03e9)));

    private final TtftPredictor predictor = new TtftPredictor();
    private final DistributionSummary errorMs;
    private final DistributionSummary relativeError;

    public TtftLearner(MeterRegistry meters) {
        this.errorMs = DistributionSummary.builder("zerolayer_ttft_prediction_error_ms")
                .description("|predicted - observed| time to first token of answers served by the first node tried")
                .publishPercentiles(0.5, 0.9).register(meters);
        this.relativeError = DistributionSummary.builder("zerolayer_ttft_prediction_error_relative")
                .description("|predicted - observed| / observed time to first token")
                .publishPercentiles(0.5, 0.9).register(meters);
    }

    /** The node's current TTFT model (its hardware prior until it has served). */
    public TtftModel model(NodeRegistration registration) {
        TtftModel prior = PRIORS.get(registration.hardwareProfile());
        return predictor.model(registration.nodeId(), prior == null ? TtftModel.generic() : prior);
    }

    /** Learns from one outcome: only an answer whose first byte came from the node the decision predicted for. */
    public void observe(RouteDecision decision, DispatchTrace dispatch) {
        if (decision != null && dispatch != null) {
            observe(decision.predictedTtft(), dispatch.firstServedNode(), dispatch.bypassed(), dispatch.ttfbNanos());
        }
    }

    /** Learns from a first byte of {@code servedNode} after {@code ttfbNanos}, if it is the node predicted for. */
    public void observe(PredictedTtft predicted, String servedNode, boolean bypassed, long ttfbNanos) {
        if (predicted == null || ttfbNanos < 0 || bypassed || !predicted.node().equals(servedNode)) {
            return;
        }
        double observedMs = ttfbNanos / 1e6;
        predictor.observe(predicted.node(), predicted.queued(), predicted.uncachedTokens(), predicted.pendingTokens(),
                predicted.slotWait(), predicted.busyShare(), observedMs);
        double error = Math.abs(predicted.predictedMs() - observedMs);
        errorMs.record(error);
        relativeError.record(error / Math.max(1.0, observedMs));
    }

    /** Observations a node's model has learned from. */
    public long observations(String nodeId) {
        return predictor.observations(nodeId);
    }
}
