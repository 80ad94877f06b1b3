package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/** Load headroom: 1 minus the node's effective load (telemetry's or the router's own in-flight share, the larger). */
public final class LoadScorer implements NodeScorer {

    @Override
    public String name() {
        return "load";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return 1.0 - Math.min(1.0, node.effectiveLoad());
    }
}
