package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.CapacityDowngrade;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.routing.ttft.TtftModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The predicted-TTFT scorer, the soft TTFT SLO filter and the capacity-downgrade tier rule. */
class PredictedTtftTest {

    /** 10 ms + 1 s per request ahead + 100 ms per 1,000 uncached tokens (own or pending) + 500 ms per slot wait. */
    private static final TtftModel MODEL = new TtftModel(10, 1_000, 100, 100, 500, 0);
    private static final PolicyDocument DEFAULTS = PolicyDocument.defaults();

    private static NodeCandidate node(String id, String tier, String cluster, int queue, int blocksHeld) {
        return new NodeCandidate(id, tier, cluster, NodeState.HEALTHY, 0.95, 0.2, queue, 8, 0, false, blocksHeld,
                false, null, MODEL);
    }

    private static PolicyDocument withScoring(Scoring scoring) {
        PolicyDocument d = DEFAULTS;
        return new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(), d.thresholds(),
                d.limits(), d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting(), scoring, null);
    }

    private static Scoring ttftScoring(List<String> filters, CapacityDowngrade downgrade) {
        return new Scoring(filters, Map.of("predicted_ttft", 1.0, "health", 0.01), null, null, null,
                Map.of("haiku", 400.0, "sonnet", 600.0, "opus", 1_000.0), 0.25, null, downgrade);
    }

    @Test
    void aNodesPredictionIsItsQueueAndThePrefillOfWhatItDoesNotHold() {
        NodeCandidate n = node("s", "sonnet", "sonnet-a100-40g", 2, 50);
        DecisionInput input = new DecisionInput(2_000, 0.5, null, null, 125);
        assertThat(n.uncachedTokens(input)).isEqualTo(2_000 - 50 * 16);
        assertThat(n.predictedTtftMs(input)).isCloseTo(10 + 2_000 + 120, within(1e-9));
        assertThat(node("x", "sonnet", "c", 0, 0).withTtft(null).predictedTtftMs(input)).isNaN();
        // the router's own requests awaiting a first byte are a queue before telemetry reports one, their prefill
        // backlog counts, and so does the router's in-flight beyond the run slots
        NodeCandidate full = new NodeCandidate("f", "sonnet", "c", NodeState.HEALTHY, 1, 1, 0, 8, 10, false, 0, false,
                null, MODEL, 2, 3_000);
        assertThat(full.queuedAhead()).isEqualTo(2);
        assertThat(full.slotWait()).isEqualTo(3);
        assertThat(full.predictedTtftMs(input)).isCloseTo(10 + 2_000 + 200 + 300 + 1_500, within(1e-9));
    }

    @Test
    void theScorerPicksTheLowestPredictedTtftAndExplainKeepsTheTerm() {
        // Given two sonnet nodes: one holds the prompt but has a queue of 1, the other holds nothing and is idle
        List<NodeCandidate> fleet = List.of(node("cached-busy", "sonnet", "sonnet-a100-40g", 1, 125),
                node("cold-idle", "sonnet", "sonnet-a100-40g", 0, 0));
        DecisionInput input = new DecisionInput(2_000, 0.5, null, null, 125);

        RouteDecision decision = new DecisionEngine().decide(input, fleet, withScoring(ttftScoring(null,
                CapacityDowngrade.defaults())));

        // Then 210 ms (cold, idle) beats 1,010 ms (cached, one ahead); the raw term is SLO / (SLO + predicted)
        assertThat(decision.node()).isEqualTo("cold-idle");
        ScoredCandidate cold = decision.candidates().stream().filter(c -> c.nodeId().equals("cold-idle")).findFirst()
                .orElseThrow();
        assertThat(cold.termName(1)).isEqualTo("predicted_ttft");
        assertThat(cold.raw(1)).isCloseTo(600.0 / (600 + 210), within(1e-9));
        // And the decision carries what the serving node's prediction was made from, for the router to learn by
        assertThat(decision.predictedTtft()).isEqualTo(new PredictedTtft("cold-idle", 0, 2_000, 0, 0, 0.0, 210.0));
        // And without the weight (today's default) the cached node wins on prefix share
        assertThat(new DecisionEngine().decide(input, fleet, DEFAULTS).node()).isEqualTo("cached-busy");
    }

    @Test
    void theSloFilterPassesOverNodesPredictedToMissWhileAnotherMeetsIt() {
        List<NodeCandidate> fleet = new ArrayList<>(List.of(node("late", "sonnet", "sonnet-a100-40g", 1, 0),
                node("on-time", "sonnet", "sonnet-a100-40g", 0, 0)));
        DecisionInput input = new DecisionInput(1_000, 0.5, null, null, 62);
        // health-only scoring would prefer "late" (listed first, equal score): the filter decides
        Scoring scoring = new Scoring(List.of("routable_state", "ttft_slo"), Map.of("health", 1.0), null, null, null,
                Map.of("sonnet", 600.0), 0.25, null, null);

        RouteDecision decision = new DecisionEngine().decide(input, fleet, withScoring(scoring));

        assertThat(decision.node()).isEqualTo("on-time");
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("late")).first()
                .extracting(ScoredCandidate::excludedBecause).asString().startsWith("predicted ttft 1110 ms > slo 600");
        // When every node would miss, none is passed over: the cluster still serves, no fallback
        fleet.set(1, node("late-too", "sonnet", "sonnet-a100-40g", 2, 0));
        RouteDecision allLate = new DecisionEngine().decide(input, fleet, withScoring(scoring));
        assertThat(allLate.tier()).isEqualTo("sonnet");
        assertThat(allLate.node()).isEqualTo("late");
        assertThat(allLate.fallback()).isNull();
    }

    private static List<NodeCandidate> saturatedSonnet(int haikuQueue) {
        return List.of(node("sonnet-0", "sonnet", "sonnet-a100-40g", 3, 0),
                node("sonnet-1", "sonnet", "sonnet-a100-40g", 4, 0),
                node("haiku-0", "haiku", "haiku-l4", haikuQueue, 0));
    }

    @Test
    void aSaturatedTierSendsItsRequestsOneTierDownWithCapacityDowngrade() {
        PolicyDocument on = withScoring(ttftScoring(null, new CapacityDowngrade(true, 0.0, 0.6, false)));
        DecisionInput sonnetRequest = new DecisionInput(1_000, 0.5, null, null, 62);

        RouteDecision decision = new DecisionEngine().decide(sonnetRequest, saturatedSonnet(0), on);

        assertThat(decision.tier()).isEqualTo("haiku");
        assertThat(decision.node()).isEqualTo("haiku-0");
        assertThat(decision.fallback()).isEqualTo(FallbackReason.CAPACITY_DOWNGRADE);
        assertThat(decision.fallbackReason()).isEqualTo("capacity_downgrade");
        assertThat(decision.fired()).contains(RuleFired.of(RuleFired.Kind.CAPACITY_DOWNGRADE, "sonnet->haiku"));
        assertThat(decision.fired(RuleFired.Kind.CAPACITY_DOWNGRADE)).isTrue();
    }

    @Test
    void noDowngradeWhenOffPinnedOutsideTheBandOrTheLowerTierCannotMeetTheSlo() {
        DecisionInput sonnetRequest = new DecisionInput(1_000, 0.5, null, null, 62);
        CapacityDowngrade enabled = new CapacityDowngrade(true, 0.0, 0.6, false);
        // off (the default): stays on the saturated tier
        assertThat(new DecisionEngine().decide(sonnetRequest, saturatedSonnet(0),
                withScoring(ttftScoring(null, null))).tier()).isEqualTo("sonnet");
        // the tier below is saturated too
        assertThat(new DecisionEngine().decide(sonnetRequest, saturatedSonnet(2),
                withScoring(ttftScoring(null, enabled))).tier()).isEqualTo("sonnet");
        // complexity above the band
        assertThat(new DecisionEngine().decide(new DecisionInput(1_000, 0.58, null, null, 62), saturatedSonnet(0),
                withScoring(ttftScoring(null, new CapacityDowngrade(true, 0.0, 0.55, false)))).tier())
                .isEqualTo("sonnet");
        // pinned: kept unless the policy allows it
        DecisionInput pinned = new DecisionInput(1_000, 0.5, "sonnet", null, 62);
        assertThat(new DecisionEngine().decide(pinned, saturatedSonnet(0), withScoring(ttftScoring(null, enabled)))
                .tier()).isEqualTo("sonnet");
        RouteDecision allowed = new DecisionEngine().decide(pinned, saturatedSonnet(0),
                withScoring(ttftScoring(null, new CapacityDowngrade(true, 0.0, 0.6, true))));
        assertThat(allowed.tier()).isEqualTo("haiku");
        assertThat(allowed.fallback()).isEqualTo(FallbackReason.CAPACITY_DOWNGRADE);
        // one sonnet node within the SLO: no downgrade
        List<NodeCandidate> oneFree = List.of(node("sonnet-0", "sonnet", "sonnet-a100-40g", 3, 0),
                node("sonnet-1", "sonnet", "sonnet-a100-40g", 0, 0), node("haiku-0", "haiku", "haiku-l4", 0, 0));
        assertThat(new DecisionEngine().decide(sonnetRequest, oneFree, withScoring(ttftScoring(null, enabled)))
                .tier()).isEqualTo("sonnet");
        // the fleet-independent mapping never reads predictions
        assertThat(DecisionEngine.mapTier(sonnetRequest, withScoring(ttftScoring(null, enabled))).tier())
                .isEqualTo("sonnet");
    }

    @Test
    void thePolicyChecksTheNewFields() {
        DecisionPlugins plugins = DecisionPlugins.builtIn();
        assertThat(plugins.problems(ttftScoring(List.of("routable_state", "ttft_slo"), null))).isEmpty();
        assertThat(plugins.problems(new Scoring(null, null, null, null, null, Map.of("sonnet", -1.0), -0.5, 0.0,
                new CapacityDowngrade(true, 0.7, 0.3, false))))
                .anyMatch(p -> p.startsWith("scoring.ttftSloMs.sonnet"))
                .anyMatch(p -> p.startsWith("scoring.ttftSloMargin"))
                .anyMatch(p -> p.startsWith("scoring.ttftReferenceMs"))
                .anyMatch(p -> p.startsWith("scoring.capacityDowngrade"));
    }
}
