package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/** The share of the prompt's leading KV blocks the node holds (0 for a prompt shorter than one block). */
public final class PrefixShareScorer implements NodeScorer {

    @Override
    public String name() {
        return "prefix_share";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return input.promptBlocks() == 0 ? 0.0 : Math.min(1.0, (double) node.prefixBlocksHeld() / input.promptBlocks());
    }
}
