package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/** A short queue: 1 / (1 + waiting requests per slot of capacity). */
public final class QueueScorer implements NodeScorer {

    @Override
    public String name() {
        return "queue";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return 1.0 / (1.0 + (double) node.queueDepth() / Math.max(1, node.capacity()));
    }
}
