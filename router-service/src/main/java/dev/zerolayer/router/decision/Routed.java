package dev.zerolayer.router.decision;

import dev.zerolayer.router.translate.Untranslatable;
import dev.zerolayer.routing.decision.RouteDecision;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A request's decision with what it was made from: token count, complexity score and model version, policy version,
 * whether the chosen node speaks another API than the client's (translation needed), the decision time, the prompt's
 * block chains and prefix credit per node ({@link PromptPrefixes.Lookup}), and, when no node could serve it only
 * because the request cannot be translated for the nodes that could, the field that blocks it (else null).
 */
public record Routed(RouteDecision decision, int tokenCount, double complexity, String complexityModelVersion,
        long policyVersion, boolean crossProtocol, long routeNanos, PromptPrefixes.Lookup prefix,
        Untranslatable blocked) {

    public Routed {
        prefix = prefix == null ? PromptPrefixes.Lookup.of(new long[0]) : prefix;
    }

    /**
     * Per node that declares its engine's prefix caching, why its prefix could not be computed exactly (it was then
     * matched approximately, on the router's default chain).
     */
    public Map<String, String> prefixInexact() {
        return prefix.inexact();
    }

    /** The prompt's block hashes as the chosen node hashes them, as the decision event carries them. */
    public List<Long> prefixBlockHashes() {
        long[] chain = decision.servable() ? prefix.chainOf(decision.node()) : prefix.chain();
        return Arrays.stream(chain).boxed().toList();
    }
}
