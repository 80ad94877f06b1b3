package dev.zerolayer.router.decision;

import dev.zerolayer.routing.decision.RouteDecision;

/**
 * A request's decision with what it was made from: token count, complexity score and model version, policy version,
 * whether the chosen nodes speak another API than the client's (translation needed), the decision time, and the
 * prompt's leading block hashes (for approximate cache tracking downstream).
 */
public record Routed(RouteDecision decision, int tokenCount, double complexity, String complexityModelVersion,
        long policyVersion, boolean crossProtocol, long routeNanos, long[] prefixChain) {

    /** The prompt's block hashes as the decision event carries them. */
    public java.util.List<Long> prefixBlockHashes() {
        return java.util.Arrays.stream(prefixChain).boxed().toList();
    }
}
