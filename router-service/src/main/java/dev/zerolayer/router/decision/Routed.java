package dev.zerolayer.router.decision;

import dev.zerolayer.router.translate.Untranslatable;
import dev.zerolayer.routing.decision.RouteDecision;

/**
 * A request's decision with what it was made from: token count, complexity score and model version, policy version,
 * whether the chosen node speaks another API than the client's (translation needed), the decision time, the prompt's
 * leading block hashes as the chosen node hashes them (for approximate cache tracking downstream), when no node could
 * serve it only because the request cannot be translated for the nodes that could, the field that blocks it (else
 * null), and, per node that declares its engine's prefix caching, why its prefix could not be computed exactly (then
 * it was credited with none).
 */
public record Routed(RouteDecision decision, int tokenCount, double complexity, String complexityModelVersion,
        long policyVersion, boolean crossProtocol, long routeNanos, long[] prefixChain, Untranslatable blocked,
        java.util.Map<String, String> prefixInexact) {

    public Routed {
        prefixInexact = prefixInexact == null ? java.util.Map.of() : prefixInexact;
    }

    /** A decision whose nodes' prefixes were all computed exactly. */
    public Routed(RouteDecision decision, int tokenCount, double complexity, String complexityModelVersion,
            long policyVersion, boolean crossProtocol, long routeNanos, long[] prefixChain, Untranslatable blocked) {
        this(decision, tokenCount, complexity, complexityModelVersion, policyVersion, crossProtocol, routeNanos,
                prefixChain, blocked, null);
    }

    /** The prompt's block hashes as the decision event carries them. */
    public java.util.List<Long> prefixBlockHashes() {
        return java.util.Arrays.stream(prefixChain).boxed().toList();
    }
}
