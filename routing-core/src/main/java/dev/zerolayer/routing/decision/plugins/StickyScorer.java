package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/** 1 for the session's sticky node while it is HEALTHY and below the policy's {@code stickyMaxLoad}, else 0. */
public final class StickyScorer implements NodeScorer {

    @Override
    public String name() {
        return "sticky";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return node.nodeId().equals(input.stickyNode()) && node.state() == NodeState.HEALTHY
                && node.effectiveLoad() < scoring.stickyMaxLoad() ? 1.0 : 0.0;
    }
}
