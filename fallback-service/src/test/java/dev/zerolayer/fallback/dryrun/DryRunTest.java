package dev.zerolayer.fallback.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A dry run counts tier changes per from->to pair through routing-core's tier mapping; the ring keeps the last N. */
class DryRunTest {

    static PolicyDocument withTable(List<TierRule> table) {
        PolicyDocument d = PolicyDocument.defaults();
        return new PolicyDocument(d.tiers(), table, d.chains(), d.standbyClusters(), d.thresholds(), d.limits(),
                d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting());
    }

    @Test
    void countsHowManyInputsWouldChangeTierPerPair() {
        List<ReplayInput> inputs = List.of(
                new ReplayInput(100, 0.1, null),    // haiku -> haiku
                new ReplayInput(1000, 0.5, null),   // sonnet -> haiku under the wider haiku row
                new ReplayInput(1500, 0.5, null),   // sonnet -> haiku
                new ReplayInput(1000, 0.5, "opus"), // pinned: opus either way
                new ReplayInput(5000, 0.9, null));  // opus -> opus
        PolicyDocument wider = withTable(List.of(new TierRule(2048, 0.6, "haiku"),
                new TierRule(4096, 0.8, "sonnet"), new TierRule(Integer.MAX_VALUE, 1.0, "opus")));

        DryRun.Report report = DryRun.replay(inputs, PolicyDocument.defaults(), wider);

        assertThat(report.replayed()).isEqualTo(5);
        assertThat(report.changed()).isEqualTo(2);
        assertThat(report.transitions()).isEqualTo(Map.of("sonnet->haiku", 2));
        assertThat(DryRun.replay(inputs, PolicyDocument.defaults(), PolicyDocument.defaults()).changed()).isZero();
    }

    @Test
    void replayInputsComeFromRoutedDecisionsOnlyWithTheirPin() {
        assertThat(ReplayInput.of(decision(List.of("tier_table:haiku", "pin:opus"), 40, 0.2)))
                .contains(new ReplayInput(40, 0.2, "opus"));
        assertThat(ReplayInput.of(decision(List.of("tier_table:haiku"), 40, 0.2)))
                .contains(new ReplayInput(40, 0.2, null));
        assertThat(ReplayInput.of(decision(List.of(), 0, 0))).isEmpty();
    }

    @Test
    void theRingKeepsTheLatestInOrder() {
        RecentDecisions recent = new RecentDecisions(3);
        for (int i = 1; i <= 5; i++) {
            recent.add(new ReplayInput(i, 0, null));
        }
        assertThat(recent.snapshot()).extracting(ReplayInput::tokenCount).containsExactly(3, 4, 5);
        assertThat(recent.added()).isEqualTo(5);
    }

    static RoutingDecision decision(List<String> rules, int tokens, double complexity) {
        return RoutingDecision.builder().eventId("e").occurredAt(Instant.now()).requestId("r").sessionHash("s")
                .apiKeyId("k").clientApi("anthropic").requestedModel("m").tier(rules.isEmpty() ? null : "haiku")
                .tokenCount(tokens).complexityScore(complexity).complexityModelVersion("m1").policyVersion(1)
                .rulesFired(rules).status(rules.isEmpty() ? DecisionStatus.REJECTED : DecisionStatus.OK).httpStatus(200)
                .build();
    }
}
