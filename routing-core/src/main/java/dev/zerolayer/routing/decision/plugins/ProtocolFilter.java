package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeFilter;

/**
 * Excludes a node whose API cannot serve the request as it is or translated: "speaks X; the request cannot be sent to
 * it". An admission filter (a policy cannot leave it out): such a node could only fail the request, so it is not part of
 * the request's fleet.
 */
public final class ProtocolFilter implements NodeFilter {

    @Override
    public String name() {
        return "protocol";
    }

    @Override
    public String exclude(NodeCandidate node, DecisionInput input) {
        if (input.protocols() == null || input.protocols().contains(node.traits().protocol())) {
            return null;
        }
        return "speaks " + node.traits().protocol() + "; the request cannot be sent to it";
    }
}
