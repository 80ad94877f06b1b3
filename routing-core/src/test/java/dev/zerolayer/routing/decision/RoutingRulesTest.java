package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tier rules as an ordered chain with typed traces, for any number of tiers and any shaped tier. */
class RoutingRulesTest {

    /** Four tiers, the third one shaped: peak shaping is not tied to the second tier. */
    private static PolicyDocument fourTiers(String shaped) {
        PolicyDocument d = PolicyDocument.defaults();
        List<TierSpec> tiers = List.of(new TierSpec("nano", List.of("nano"), List.of("nano-c")),
                new TierSpec("small", List.of("small"), List.of("small-c")),
                new TierSpec("medium", List.of("medium"), List.of("medium-c")),
                new TierSpec("large", List.of("large"), List.of("large-c")));
        List<TierRule> table = List.of(new TierRule(256, 0.2, "nano"), new TierRule(512, 0.35, "small"),
                new TierRule(4096, 0.6, "medium"), new TierRule(Integer.MAX_VALUE, 1.0, "large"));
        return new PolicyDocument(tiers, table, Map.of("large", List.of("medium"), "medium", List.of("small")),
                Map.of(), d.thresholds(), Map.of(), d.resilience(), Map.of(), d.refusalFallback(), d.alerting(),
                d.scoring(), shaped);
    }

    private static List<NodeCandidate> fleet(double mediumLoad) {
        List<NodeCandidate> nodes = new ArrayList<>();
        for (String tier : List.of("nano", "small", "medium", "large")) {
            nodes.add(new NodeCandidate(tier + "-1", tier, tier + "-c", NodeState.HEALTHY, 0.95,
                    tier.equals("medium") ? mediumLoad : 0.1, 0, 8, 0, false, 0, false));
        }
        return nodes;
    }

    @Test
    void peakShapingWatchesTheTierThePolicyNames() {
        DecisionInput midComplexity = new DecisionInput(1_000, 0.5, null, null, 0);
        RouteDecision busy = new DecisionEngine().decide(midComplexity, fleet(0.95), fourTiers("medium"));
        assertThat(busy.tier()).isEqualTo("small");
        assertThat(busy.fallback()).isEqualTo(FallbackReason.PEAK_LOAD_SHAPING);
        assertThat(busy.fired()).contains(RuleFired.of(RuleFired.Kind.TIER_TABLE, "medium"),
                RuleFired.of(RuleFired.Kind.PEAK_LOAD_SHAPING, "small"));
        assertThat(busy.fired(RuleFired.Kind.PEAK_LOAD_SHAPING)).isTrue();

        assertThat(new DecisionEngine().decide(midComplexity, fleet(0.2), fourTiers("medium")).tier())
                .as("not busy").isEqualTo("medium");
        // by default the second tier is the shaped one, so a busy third tier is left alone
        assertThat(new DecisionEngine().decide(midComplexity, fleet(0.95), fourTiers(null)).tier())
                .isEqualTo("medium");
        assertThat(fourTiers(null).shapedTier()).isEqualTo("small");
    }

    @Test
    void highComplexityFallsOneTierInAnyTierCount() {
        RouteDecision decision = new DecisionEngine().decide(new DecisionInput(10_000, 0.97, null, null, 0),
                fleet(0.1), fourTiers(null));
        assertThat(decision.tier()).isEqualTo("medium");
        assertThat(decision.fallback()).isEqualTo(FallbackReason.HIGH_COMPLEXITY_FALLBACK);
        assertThat(decision.rulesFired()).containsSequence("tier_table:large", "high_complexity_fallback:medium");
    }

    @Test
    void aRuleAddedAfterTheStandardOnesSeesTheirChoice() {
        RoutingRule neverLarge = (choice, context) -> choice.tier().equals("large")
                ? choice.moveTo("medium", RuleFired.of(RuleFired.Kind.PIN, "medium")) : choice;
        DecisionEngine engine = new DecisionEngine(DecisionPlugins.builtIn(), RoutingRules.standard().then(neverLarge));
        RouteDecision decision = engine.decide(new DecisionInput(10_000, 0.5, null, null, 0), fleet(0.1),
                fourTiers(null));
        assertThat(decision.tier()).isEqualTo("medium");
        assertThat(decision.rulesFired()).containsSequence("tier_table:large", "pin:medium");
    }

    @Test
    void firedRulesReadBackFromTheirWireText() {
        for (RuleFired rule : List.of(RuleFired.of(RuleFired.Kind.TIER_TABLE, "sonnet"),
                RuleFired.of(RuleFired.Kind.HIGH_COMPLEXITY_WARNING), RuleFired.unhealthy("sonnet-a100-40g", 0.42),
                RuleFired.of(RuleFired.Kind.LOAD_SPIKE_REDIRECT, "a->b"))) {
            assertThat(RuleFired.parse(rule.wire())).isEqualTo(rule);
        }
        assertThat(RuleFired.unhealthy("c", 0.5).wire()).isEqualTo("cluster_unhealthy:c(0.50)");
        assertThat(RuleFired.parse("something_else:x")).isNull();
    }
}
