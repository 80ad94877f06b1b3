package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/**
 * The lower the node's predicted time to first token, the higher: reference / (reference + predicted ms), the
 * reference being the tier's TTFT SLO (else {@code scoring.ttftReferenceMs}); a node without a model is neutral (0.5).
 */
public final class PredictedTtftScorer implements NodeScorer {

    public static final String NAME = "predicted_ttft";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        double predicted = node.predictedTtftMs(input);
        if (Double.isNaN(predicted)) {
            return 0.5;
        }
        double reference = reference(node.tier(), scoring);
        return reference / (reference + predicted);
    }

    /** The tier's SLO, else the policy's reference TTFT. */
    static double reference(String tier, Scoring scoring) {
        double slo = scoring.ttftSlo(tier);
        return Double.isNaN(slo) || slo <= 0 ? scoring.ttftReferenceMs() : slo;
    }
}
