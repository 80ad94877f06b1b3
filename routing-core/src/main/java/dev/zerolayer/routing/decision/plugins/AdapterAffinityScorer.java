package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeScorer;

/**
 * 1 when the node holds the LoRA adapter the request names (as vLLM serves one: the client's {@code model} is the
 * adapter's name), else 0: a node that has the adapter loaded skips loading it.
 */
public final class AdapterAffinityScorer implements NodeScorer {

    @Override
    public String name() {
        return "adapter_affinity";
    }

    @Override
    public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
        return input.requestedModel() != null && node.traits().adapters().contains(input.requestedModel()) ? 1.0 : 0.0;
    }
}
