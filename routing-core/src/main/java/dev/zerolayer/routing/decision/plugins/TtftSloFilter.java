package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeFilter;
import java.util.Locale;

/**
 * Soft filter: a node predicted to miss its tier's TTFT SLO by more than the policy's margin is passed over while
 * another node of its cluster is predicted within it; tiers without an SLO and nodes without a model pass.
 */
public final class TtftSloFilter implements NodeFilter {

    public static final String NAME = "ttft_slo";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String exclude(NodeCandidate node, DecisionInput input) {
        return null;
    }

    @Override
    public String exclude(NodeCandidate node, DecisionInput input, Scoring scoring) {
        double slo = scoring.ttftSlo(node.tier());
        if (Double.isNaN(slo)) {
            return null;
        }
        double predicted = node.predictedTtftMs(input);
        if (!misses(predicted, slo, scoring)) {
            return null;
        }
        return String.format(Locale.ROOT, "predicted ttft %.0f ms > slo %.0f ms", predicted, slo);
    }

    @Override
    public boolean soft() {
        return true;
    }

    /** Whether a prediction misses the SLO by more than the margin (a NaN prediction never does). */
    public static boolean misses(double predictedMs, double sloMs, Scoring scoring) {
        return predictedMs > sloMs * (1.0 + scoring.ttftSloMargin());
    }
}
