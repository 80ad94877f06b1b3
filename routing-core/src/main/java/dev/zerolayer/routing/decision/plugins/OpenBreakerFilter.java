package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeFilter;

/** Excludes a node whose circuit breaker in this router is open: "circuit open". */
public final class OpenBreakerFilter implements NodeFilter {

    @Override
    public String name() {
        return "open_breaker";
    }

    @Override
    public String exclude(NodeCandidate node, DecisionInput input) {
        return node.breakerOpen() ? "circuit open" : null;
    }
}
