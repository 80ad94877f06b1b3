package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tier from size and complexity alone is the one the decision engine picks on a healthy, idle fleet. */
class TierSelectionTest {

    private final PolicyDocument policy = PolicyDocument.defaults();

    @Test
    void followsTheTierTableAndFallsOneTierAboveTheHighComplexityMark() {
        assertThat(TierSelection.tableTier(policy, 100, 0.30)).isEqualTo("haiku");
        assertThat(TierSelection.tableTier(policy, 513, 0.10)).isEqualTo("sonnet");
        assertThat(TierSelection.tableTier(policy, 100, 0.61)).isEqualTo("opus");
        assertThat(TierSelection.tableTier(policy, 5_000, 0.01)).isEqualTo("opus");
        assertThat(TierSelection.unpinnedTier(policy, 100, 0.96)).isEqualTo("sonnet");
        assertThat(TierSelection.unpinnedTier(policy, 100, 0.95)).isEqualTo("opus");
        assertThat(TierSelection.tierOrder(policy)).containsExactly("haiku", "sonnet", "opus");
    }

    @Test
    void agreesWithTheDecisionEngineOnAHealthyIdleFleet() {
        List<NodeCandidate> fleet = List.of(
                node("h", "haiku", "haiku-l4"), node("s", "sonnet", "sonnet-a100-40g"),
                node("o", "opus", "opus-a100-80g"));
        DecisionEngine engine = new DecisionEngine();
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            int tokens = random.nextInt(4_000);
            double complexity = random.nextDouble();
            RouteDecision decision = engine.decide(new DecisionInput(tokens, complexity, null, null, 0), fleet, policy);
            assertThat(TierSelection.unpinnedTier(policy, tokens, complexity))
                    .as("tokens %d complexity %.3f", tokens, complexity).isEqualTo(decision.tier());
        }
    }

    private static NodeCandidate node(String id, String tier, String cluster) {
        return new NodeCandidate(id, tier, cluster, NodeState.HEALTHY, 0.95, 0.1, 0, 8, 0, false, 0, false);
    }
}
