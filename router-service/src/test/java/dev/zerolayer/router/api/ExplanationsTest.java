package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.router.decision.PromptPrefixes;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeTraits;
import dev.zerolayer.routing.decision.RouteDecision;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Explain shows the scoring that ran (filters, weights, picker) and each candidate's terms, raw and weighted. */
class ExplanationsTest {

    @Test
    void explainShowsThePolicysScoringAndEveryWeightedTermIncludingNewScorers() {
        PolicyDocument d = PolicyDocument.defaults();
        Map<String, Double> weights = new LinkedHashMap<>(Scoring.defaults().weights());
        weights.put("adapter_affinity", 0.3);
        weights.put("cost", 0.2);
        PolicyDocument policy = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(),
                d.thresholds(), d.limits(), d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting(),
                new Scoring(null, weights, null, null, null), null);
        List<NodeCandidate> fleet = List.of(
                new NodeCandidate("haiku-a", "haiku", "haiku-l4", NodeState.HEALTHY, 0.9, 0.1, 0, 8, 0, false, 0,
                        false, new NodeTraits(Set.of("support-lora"), 1.0)),
                new NodeCandidate("haiku-b", "haiku", "haiku-l4", NodeState.DOWN, 0.9, 0.1, 0, 8, 0, false, 0,
                        false, NodeTraits.NONE),
                new NodeCandidate("haiku-c", "haiku", "haiku-l4", NodeState.HEALTHY, 0.9, 0.1, 0, 8, 0, false, 0,
                        false, NodeTraits.NONE));
        RouteDecision decision = new DecisionEngine().decide(new DecisionInput(100, 0.1, null, null, 0,
                "support-lora"), fleet, policy);

        JsonNode body = Explanations.of("req-1", new Routed(decision, 100, 0.1, "m1", 7, false, 1_000,
                new PromptPrefixes.Lookup(new long[0], java.util.Map.of(), java.util.Map.of(),
                        java.util.Map.of("haiku-c", "tokenizer still loading"), java.util.Map.of()), null),
                dev.zerolayer.routing.complexity.ComplexityScorer.defaultScorer().score(
                        "Write a Java method that checks whether a binary tree is balanced."));

        assertThat(body.path("node").asString()).isEqualTo("haiku-a");
        // the complexity score's strongest drivers, named, largest first
        JsonNode drivers = body.path("complexity_drivers");
        assertThat(drivers.size()).isBetween(1, Explanations.DRIVERS);
        assertThat(drivers.path(0).path("feature").asString()).isNotBlank();
        assertThat(Math.abs(drivers.path(0).path("logit").asDouble()))
                .isGreaterThanOrEqualTo(Math.abs(drivers.path(drivers.size() - 1).path("logit").asDouble()));
        assertThat(body.path("scoring").path("weights").path("cost").asDouble()).isEqualTo(0.2);
        assertThat(body.path("scoring").path("picker").asString()).isEqualTo("highest_score");
        assertThat(body.path("scoring").path("filters").toString()).contains("routable_state", "open_breaker");
        JsonNode chosen = candidate(body, "haiku-a");
        assertThat(chosen.path("terms").path("adapter_affinity").asDouble()).isEqualTo(1.0);
        assertThat(chosen.path("weighted_terms").path("adapter_affinity").asDouble()).isEqualTo(0.3);
        assertThat(chosen.path("terms").path("cost").asDouble()).isEqualTo(0.5);
        assertThat(chosen.path("weighted_terms").path("cost").asDouble()).isEqualTo(0.1);
        assertThat(candidate(body, "haiku-c").path("terms").path("adapter_affinity").asDouble()).isZero();
        // a node whose engine's prefix could not be computed says why it got no prefix credit
        assertThat(candidate(body, "haiku-c").path("prefix_inexact").asString()).isEqualTo("tokenizer still loading");
        assertThat(chosen.has("prefix_inexact")).isFalse();
        assertThat(candidate(body, "haiku-b").path("excluded_because").asString()).isEqualTo("state DOWN");
        assertThat(body.path("rules_fired").toString()).contains("tier_table:haiku", "node_score:haiku-a");
    }

    private static JsonNode candidate(JsonNode body, String node) {
        for (JsonNode c : body.path("candidates")) {
            if (c.path("node").asString().equals(node)) {
                return c;
            }
        }
        throw new AssertionError("no candidate " + node);
    }
}
