package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import org.junit.jupiter.api.Test;

/** The fleet-independent part of the decision (rules 2 to 4) is what decide() starts from. */
class TierMappingTest {

    private static final PolicyDocument POLICY = PolicyDocument.defaults();

    @Test
    void tierTableThenPinThenHighComplexity() {
        assertThat(DecisionEngine.mapTier(new DecisionInput(100, 0.2, null, null, 0), POLICY))
                .isEqualTo(new TierMapping("haiku", java.util.List.of("tier_table:haiku"), null, null));
        assertThat(DecisionEngine.mapTier(new DecisionInput(1000, 0.5, null, null, 0), POLICY).tier())
                .isEqualTo("sonnet");
        assertThat(DecisionEngine.mapTier(new DecisionInput(100, 0.2, "opus", null, 0), POLICY).rulesFired())
                .containsExactly("tier_table:haiku", "pin:opus");

        TierMapping vague = DecisionEngine.mapTier(new DecisionInput(100, 0.97, null, null, 0), POLICY);
        assertThat(vague.tier()).isEqualTo("sonnet");
        assertThat(vague.fallbackReason()).isEqualTo(DecisionEngine.HIGH_COMPLEXITY_FALLBACK);

        TierMapping pinnedVague = DecisionEngine.mapTier(new DecisionInput(100, 0.97, "opus", null, 0), POLICY);
        assertThat(pinnedVague.tier()).isEqualTo("opus");
        assertThat(pinnedVague.fallbackReason()).isNull();
        assertThat(pinnedVague.warning()).isEqualTo(DecisionEngine.HIGH_COMPLEXITY_FALLBACK);
    }

    @Test
    void decideStartsFromTheMapping() {
        DecisionInput input = new DecisionInput(100, 0.97, null, null, 0);
        RouteDecision decision = new DecisionEngine().decide(input, java.util.List.of(), POLICY);
        TierMapping mapping = DecisionEngine.mapTier(input, POLICY);
        assertThat(decision.rulesFired()).startsWith(mapping.rulesFired().toArray(String[]::new));
        assertThat(decision.fallbackReason()).isEqualTo(mapping.fallbackReason());
    }
}
