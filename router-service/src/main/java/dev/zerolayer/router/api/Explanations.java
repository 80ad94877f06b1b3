package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.routing.complexity.ComplexityScore;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.decision.ScoredCandidate;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The body of {@code /v1/route/explain}: the decision, what it was made from (the complexity score's strongest drivers
 * among it), the node scoring that ran (filters, weights, picker) and every candidate's terms, raw and weighted.
 */
final class Explanations {

    private Explanations() {
    }

    /** How many of the complexity score's drivers explain shows. */
    static final int DRIVERS = 5;

    static ObjectNode of(String requestId, Routed routed, ComplexityScore complexity) {
        RouteDecision decision = routed.decision();
        ObjectNode body = EventCodec.mapper().createObjectNode();
        body.put("request_id", requestId);
        body.put("tier", decision.tier());
        body.put("cluster", decision.cluster());
        body.put("node", decision.node());
        body.put("servable", decision.servable());
        ArrayNode ranked = body.putArray("ranked");
        decision.ranked().forEach(ranked::add);
        body.put("token_count", routed.tokenCount());
        body.put("complexity_score", routed.complexity());
        body.put("complexity_model", routed.complexityModelVersion());
        // what moved the score most: lexical features by name, the n-gram part as "ngrams" (hashes, never text)
        ArrayNode drivers = body.putArray("complexity_drivers");
        complexity.drivers().stream().limit(DRIVERS).forEach(d -> drivers.addObject().put("feature", d.feature())
                .put("value", d.value()).put("weight", d.weight()).put("logit", d.logit()));
        ArrayNode complexityRules = body.putArray("complexity_rules");
        complexity.rules().forEach(complexityRules::add);
        body.put("policy_version", routed.policyVersion());
        body.put("fallback_triggered", decision.fallbackTriggered());
        body.put("fallback_reason", decision.fallbackReason());
        body.put("warning", decision.warning());
        body.put("cache_hit", decision.cacheHit());
        body.put("translated", routed.crossProtocol());
        if (routed.blocked() != null) {
            body.put("untranslatable_field", routed.blocked().field());
        }
        body.put("route_time_ms", routed.routeNanos() / 1e6);
        ArrayNode rules = body.putArray("rules_fired");
        decision.rulesFired().forEach(rules::add);
        if (decision.pipeline() != null) {
            ObjectNode scoring = body.putObject("scoring");
            ArrayNode filters = scoring.putArray("filters");
            decision.pipeline().scoring().filters().forEach(filters::add);
            ObjectNode weights = scoring.putObject("weights");
            for (String scorer : decision.pipeline().scorerNames()) {
                weights.put(scorer, decision.pipeline().scoring().weight(scorer));
            }
            scoring.put("picker", decision.pipeline().scoring().picker());
        }
        ArrayNode candidates = body.putArray("candidates");
        for (ScoredCandidate c : decision.candidates()) {
            ObjectNode node = candidates.addObject();
            node.put("node", c.nodeId()).put("tier", c.tier()).put("cluster", c.cluster())
                    .put("eligible", c.eligible()).put("excluded_because", c.excludedBecause())
                    .put("score", c.score());
            String inexact = routed.prefixInexact().get(c.nodeId());
            if (inexact != null) {
                // the node declares its engine's prefix caching but this prompt's blocks could not be computed as
                // its engine computes them: it was matched approximately, on what this router sent it lately
                node.put("prefix_match", "approximate");
                node.put("prefix_inexact", inexact);
            }
            // each scorer's term in [0,1] and its weighted share of the score, in the pipeline's order
            ObjectNode terms = node.putObject("terms");
            ObjectNode weighted = node.putObject("weighted_terms");
            for (int i = 0; i < c.termCount(); i++) {
                terms.put(c.termName(i), c.raw(i));
                weighted.put(c.termName(i), c.weighted(i));
            }
        }
        return body;
    }
}
