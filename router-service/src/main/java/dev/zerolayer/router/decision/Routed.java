package dev.zerolayer.router.decision;

import dev.zerolayer.routing.decision.RouteDecision;

/**
 * A request's decision with what it was made from: token count, complexity score and model version, policy version,
 * whether the chosen nodes speak another API than the client's (translation needed), and the decision time.
 */
public record Routed(RouteDecision decision, int tokenCount, double complexity, String complexityModelVersion,
        long policyVersion, boolean crossProtocol, long routeNanos) {
}
