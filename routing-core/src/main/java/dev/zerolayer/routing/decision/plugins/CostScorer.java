package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/**
 * Cheapness: reference / (reference + the node's cost per million tokens), so 1 for a free node, 0.5 at the policy's
 * {@code costReferencePerMillionTokens}, toward 0 for an expensive one; 0.5 for a node that declares no cost.
 */
public final class CostScorer implements NodeScorer {

    @Override
    public String name() {
        return "cost";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        double cost = node.traits().costPerMillionTokens();
        if (Double.isNaN(cost)) {
            return 0.5;
        }
        double reference = scoring.costReferencePerMillionTokens();
        return reference / (reference + Math.max(0.0, cost));
    }
}
