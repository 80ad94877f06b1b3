package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The node pipeline: filters, weighted scorers and picker come from the policy; a new plugin is one registration. */
class DecisionPipelineTest {

    private static final PolicyDocument DEFAULTS = PolicyDocument.defaults();

    private static NodeCandidate haiku(String id, double health, double load, int queue, NodeTraits traits) {
        return new NodeCandidate(id, "haiku", "haiku-l4", NodeState.HEALTHY, health, load, queue, 8, 0, false, 0,
                false, traits);
    }

    private static PolicyDocument withScoring(Scoring scoring) {
        PolicyDocument d = DEFAULTS;
        return new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(), d.thresholds(),
                d.limits(), d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting(), scoring, null);
    }

    private static Scoring weights(Map<String, Double> weights) {
        return new Scoring(null, weights, null, null, null);
    }

    private static Map<String, Double> defaultWeightsPlus(String scorer, double weight) {
        Map<String, Double> weights = new LinkedHashMap<>(Scoring.defaults().weights());
        weights.put(scorer, weight);
        return weights;
    }

    @Test
    void theDefaultScoringIsSpecRuleEightWithEachTermKeptRawAndWeighted() {
        NodeCandidate node = new NodeCandidate("haiku-1", "haiku", "haiku-l4", NodeState.HEALTHY, 0.8, 0.3, 4, 8, 0,
                false, 3, false);
        RouteDecision decision = new DecisionEngine().decide(new DecisionInput(200, 0.1, null, "haiku-1", 6),
                List.of(node), DEFAULTS);

        ScoredCandidate scored = decision.candidates().get(0);
        double expected = 0.35 * 0.5 + 0.25 * 0.7 + 0.15 * (1 / 1.5) + 0.25 * 0.8 + 0.10;
        assertThat(scored.score()).isCloseTo(expected, within(1e-12));
        assertThat(decision.pipeline().scorerNames()).containsExactly("prefix_share", "load", "queue", "health",
                "sticky");
        assertThat(scored.raw(0)).isEqualTo(0.5);
        assertThat(scored.weighted(0)).isCloseTo(0.175, within(1e-12));
        assertThat(scored.termName(4)).isEqualTo("sticky");
        assertThat(scored.raw(4)).isEqualTo(1.0);
        assertThat(scored.weighted(4)).isCloseTo(0.10, within(1e-12));
    }

    @Test
    void nodesOfAnApiTheRequestCannotReachAreLeftOutOfTheFleetWhateverThePolicyFiltersName() {
        // Given a haiku cluster of a healthy OpenAI node and a sick Anthropic node, and a policy naming one filter
        List<NodeCandidate> nodes = List.of(
                haiku("openai-a", 1.0, 0.1, 0, new NodeTraits(Set.of(), Double.NaN, "openai")),
                new NodeCandidate("anthropic-b", "haiku", "haiku-l4", NodeState.HEALTHY, 0.2, 0.1, 0, 8, 0, false,
                        0, false, new NodeTraits(Set.of(), Double.NaN, "anthropic")));
        PolicyDocument policy = withScoring(new Scoring(List.of("routable_state"), null, null, null, null));
        DecisionInput input = new DecisionInput(200, 0.1, null, null, 0, null);

        // When only Anthropic nodes can take the request
        RouteDecision anthropicOnly = new DecisionEngine().decide(input.withProtocols(Set.of("anthropic")), nodes,
                policy);

        // Then the OpenAI node is not a candidate at all (so it does not weigh on the cluster's health either)
        assertThat(anthropicOnly.node()).isEqualTo("anthropic-b");
        assertThat(anthropicOnly.candidates()).extracting(ScoredCandidate::nodeId).containsExactly("anthropic-b");

        // And with any API allowed both are candidates and the healthier one wins
        RouteDecision any = new DecisionEngine().decide(input, nodes, policy);
        assertThat(any.candidates()).hasSize(2);
        assertThat(any.node()).isEqualTo("openai-a");
        assertThat(new DecisionEngine().decide(input.withProtocols(Set.of("openai")), nodes, policy).candidates())
                .extracting(ScoredCandidate::nodeId).containsExactly("openai-a");
    }

    @Test
    void weightsComeFromThePolicyAndAScorerWithoutWeightDoesNotRun() {
        // the healthier node is more loaded: by default health and load balance, with load alone the idle one wins
        List<NodeCandidate> nodes = List.of(haiku("healthy-busy", 1.0, 0.6, 0, NodeTraits.NONE),
                haiku("idle-sick", 0.75, 0.0, 0, NodeTraits.NONE));
        DecisionInput input = new DecisionInput(200, 0.1, null, null, 0);
        RouteDecision byDefault = new DecisionEngine().decide(input, nodes, withScoring(weights(Map.of(
                "health", 1.0, "load", 0.1))));
        assertThat(byDefault.node()).isEqualTo("healthy-busy");

        RouteDecision loadOnly = new DecisionEngine().decide(input, nodes, withScoring(weights(Map.of("load", 1.0))));
        assertThat(loadOnly.node()).isEqualTo("idle-sick");
        assertThat(loadOnly.pipeline().scorerNames()).containsExactly("load");
        assertThat(loadOnly.candidates()).allSatisfy(c -> assertThat(c.termCount()).isEqualTo(1));
    }

    @Test
    void aNewScorerIsOneClassAndOneRegistrationAndShowsItsTerm() {
        // a scorer this test invents: prefers nodes whose id ends in "-b"
        NodeScorer suffix = new NodeScorer() {
            @Override
            public String name() {
                return "suffix_b";
            }

            @Override
            public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
                return node.nodeId().endsWith("-b") ? 1.0 : 0.0;
            }
        };
        DecisionEngine engine = new DecisionEngine(DecisionPlugins.builtIn().with(suffix), RoutingRules.standard());
        List<NodeCandidate> nodes = List.of(haiku("node-a", 0.95, 0.1, 0, NodeTraits.NONE),
                haiku("node-b", 0.95, 0.2, 0, NodeTraits.NONE));
        DecisionInput input = new DecisionInput(200, 0.1, null, null, 0);

        assertThat(engine.decide(input, nodes, DEFAULTS).node()).as("registered but unweighted").isEqualTo("node-a");
        RouteDecision weighted = engine.decide(input, nodes, withScoring(weights(defaultWeightsPlus("suffix_b", 0.5))));
        assertThat(weighted.node()).isEqualTo("node-b");
        assertThat(weighted.pipeline().scorerNames()).endsWith("suffix_b");
        ScoredCandidate b = weighted.candidates().stream().filter(c -> c.nodeId().equals("node-b")).findFirst()
                .orElseThrow();
        assertThat(b.termName(b.termCount() - 1)).isEqualTo("suffix_b");
        assertThat(b.weighted(b.termCount() - 1)).isEqualTo(0.5);
    }

    @Test
    void filtersRunInThePolicysOrderAndANewFilterExcludesWithItsReason() {
        NodeFilter noCanary = new NodeFilter() {
            @Override
            public String name() {
                return "no_canary";
            }

            @Override
            public String exclude(NodeCandidate node, DecisionInput input) {
                return node.nodeId().contains("canary") ? "canary node" : null;
            }
        };
        DecisionEngine engine = new DecisionEngine(DecisionPlugins.builtIn().with(noCanary), RoutingRules.standard());
        List<NodeCandidate> nodes = List.of(haiku("canary-1", 1.0, 0.0, 0, NodeTraits.NONE),
                haiku("haiku-1", 0.9, 0.3, 0, NodeTraits.NONE), haiku("haiku-2", 0.9, 0.3, 0, NodeTraits.NONE));
        DecisionInput input = new DecisionInput(200, 0.1, null, null, 0);
        assertThat(engine.decide(input, nodes, DEFAULTS).node()).isEqualTo("canary-1");

        Scoring scoring = new Scoring(List.of("routable_state", "open_breaker", "no_canary"), null, null, null, null);
        RouteDecision decision = engine.decide(input, nodes, withScoring(scoring));
        assertThat(decision.node()).isEqualTo("haiku-1");
        assertThat(decision.ranked()).doesNotContain("canary-1");
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("canary-1")).singleElement()
                .satisfies(c -> assertThat(c.excludedBecause()).isEqualTo("canary node"));
    }

    @Test
    void aTermOutsideZeroToOneIsHeldToTheRange() {
        NodeScorer wild = new NodeScorer() {
            @Override
            public String name() {
                return "wild";
            }

            @Override
            public double score(NodeCandidate node, DecisionInput input, Scoring scoring) {
                return node.nodeId().equals("node-a") ? 40.0 : Double.NaN;
            }
        };
        DecisionEngine engine = new DecisionEngine(DecisionPlugins.builtIn().with(wild), RoutingRules.standard());
        RouteDecision decision = engine.decide(new DecisionInput(200, 0.1, null, null, 0),
                List.of(haiku("node-a", 0.9, 0.1, 0, NodeTraits.NONE), haiku("node-b", 0.9, 0.1, 0, NodeTraits.NONE)),
                withScoring(weights(Map.of("wild", 1.0))));
        assertThat(decision.candidates()).extracting(ScoredCandidate::score).containsExactlyInAnyOrder(1.0, 0.0);
    }

    @Test
    void adapterAffinityPrefersTheNodeHoldingTheNamedAdapterWhenWeighted() {
        List<NodeCandidate> nodes = List.of(haiku("plain", 0.95, 0.1, 0, NodeTraits.NONE),
                haiku("with-lora", 0.95, 0.3, 0, new NodeTraits(Set.of("support-bot-v3"), Double.NaN)));
        DecisionInput naming = new DecisionInput(200, 0.1, null, null, 0, "support-bot-v3");
        DecisionInput other = new DecisionInput(200, 0.1, null, null, 0, "claude-haiku-4-5");
        PolicyDocument policy = withScoring(weights(defaultWeightsPlus("adapter_affinity", 0.3)));

        assertThat(new DecisionEngine().decide(naming, nodes, DEFAULTS).node()).as("not weighted").isEqualTo("plain");
        RouteDecision decision = new DecisionEngine().decide(naming, nodes, policy);
        assertThat(decision.node()).isEqualTo("with-lora");
        assertThat(term(decision, "with-lora", "adapter_affinity")).isEqualTo(1.0);
        assertThat(term(decision, "plain", "adapter_affinity")).isEqualTo(0.0);
        assertThat(new DecisionEngine().decide(other, nodes, policy).node()).isEqualTo("plain");
    }

    @Test
    void costPrefersTheCheaperNodeAndAnUndeclaredCostIsNeutral() {
        List<NodeCandidate> nodes = List.of(haiku("dear", 0.95, 0.1, 0, new NodeTraits(Set.of(), 4.0)),
                haiku("cheap", 0.95, 0.2, 0, new NodeTraits(Set.of(), 0.25)),
                haiku("unknown", 0.95, 0.2, 0, NodeTraits.NONE));
        DecisionInput input = new DecisionInput(200, 0.1, null, null, 0);
        RouteDecision decision = new DecisionEngine().decide(input, nodes,
                withScoring(weights(defaultWeightsPlus("cost", 0.3))));

        assertThat(decision.node()).isEqualTo("cheap");
        assertThat(term(decision, "cheap", "cost")).isCloseTo(0.8, within(1e-12));
        assertThat(term(decision, "dear", "cost")).isCloseTo(0.2, within(1e-12));
        assertThat(term(decision, "unknown", "cost")).isEqualTo(0.5);
        assertThat(new DecisionEngine().decide(input, nodes, DEFAULTS).node()).as("not weighted").isEqualTo("dear");
    }

    @Test
    void problemsNameUnknownPluginsAndUnusableWeights() {
        DecisionPlugins plugins = DecisionPlugins.builtIn();
        assertThat(plugins.problems(Scoring.defaults())).isEmpty();
        Map<String, Double> bad = new LinkedHashMap<>();
        bad.put("load", -1.0);
        bad.put("gpu_vibes", 0.5);
        List<String> problems = plugins.problems(new Scoring(List.of("routable_state", "nope"), bad, "random",
                1.5, 0.0));
        assertThat(problems).anyMatch(p -> p.contains("unknown filter 'nope'"))
                .anyMatch(p -> p.contains("unknown scorer 'gpu_vibes'"))
                .anyMatch(p -> p.contains("scoring.weights.load must be a number >= 0"))
                .anyMatch(p -> p.contains("unknown picker 'random'"))
                .anyMatch(p -> p.contains("stickyMaxLoad"))
                .anyMatch(p -> p.contains("costReferencePerMillionTokens"));
        assertThat(plugins.problems(weights(Map.of("load", 0.0)))).anyMatch(p -> p.contains("at least one scorer"));
    }

    private static double term(RouteDecision decision, String node, String scorer) {
        ScoredCandidate c = decision.candidates().stream().filter(s -> s.nodeId().equals(node)).findFirst()
                .orElseThrow();
        for (int i = 0; i < c.termCount(); i++) {
            if (c.termName(i).equals(scorer)) {
                return c.raw(i);
            }
        }
        throw new AssertionError(scorer + " did not run");
    }
}
