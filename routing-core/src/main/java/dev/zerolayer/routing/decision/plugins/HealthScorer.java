package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/** The node's health score from telemetry (SPEC section 4). */
public final class HealthScorer implements NodeScorer {

    @Override
    public String name() {
        return "health";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return node.healthScore();
    }
}
