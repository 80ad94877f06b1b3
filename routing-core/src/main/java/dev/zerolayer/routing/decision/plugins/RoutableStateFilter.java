package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeFilter;

/** Excludes a node whose health state does not take traffic (DOWN, UNAVAILABLE, WARMING): "state DOWN". */
public final class RoutableStateFilter implements NodeFilter {

    @Override
    public String name() {
        return "routable_state";
    }

    @Override
    public String exclude(NodeCandidate node, DecisionInput input) {
        return node.state().routable() ? null : "state " + node.state();
    }
}
