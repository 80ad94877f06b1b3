package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** SPEC section 3 rules 2 to 8 on the default policy and a fleet shaped like the seed's (haiku, sonnet + standby, opus). */
class DecisionEngineTest {

    private final DecisionEngine engine = new DecisionEngine();
    private final PolicyDocument policy = PolicyDocument.defaults();

    private static NodeCandidate node(String id, String tier, String cluster) {
        return new NodeCandidate(id, tier, cluster, NodeState.HEALTHY, 0.95, 0.2, 0, 8, 0, false, 0, false);
    }

    private static List<NodeCandidate> fleet() {
        return List.of(
                node("haiku-1", "haiku", "haiku-l4"), node("haiku-2", "haiku", "haiku-l4"),
                node("sonnet-1", "sonnet", "sonnet-a100-40g"), node("sonnet-2", "sonnet", "sonnet-a100-40g"),
                node("standby-1", "sonnet", "sonnet-standby"),
                node("opus-1", "opus", "opus-a100-80g"), node("opus-2", "opus", "opus-a100-80g"));
    }

    private static List<NodeCandidate> fleet(String cluster, UnaryOperator<NodeCandidate> change) {
        List<NodeCandidate> nodes = new ArrayList<>();
        for (NodeCandidate n : fleet()) {
            nodes.add(n.cluster().equals(cluster) ? change.apply(n) : n);
        }
        return nodes;
    }

    private static NodeCandidate with(NodeCandidate n, NodeState state, double load, boolean spike) {
        return new NodeCandidate(n.nodeId(), n.tier(), n.cluster(), state, n.healthScore(), load, n.queueDepth(),
                n.capacity(), n.inFlight(), n.breakerOpen(), n.prefixBlocksHeld(), spike);
    }

    private RouteDecision decide(int tokens, double complexity, String pin, List<NodeCandidate> nodes) {
        return engine.decide(new DecisionInput(tokens, complexity, pin, null, 0), nodes, policy);
    }

    @Test
    void tierTableFollowsTheSeed() {
        assertThat(decide(300, 0.20, null, fleet()).tier()).isEqualTo("haiku");
        assertThat(decide(512, 0.30, null, fleet()).tier()).isEqualTo("haiku");
        assertThat(decide(513, 0.30, null, fleet()).tier()).isEqualTo("sonnet");
        assertThat(decide(1_500, 0.55, null, fleet()).tier()).isEqualTo("sonnet");
        assertThat(decide(300, 0.61, null, fleet()).tier()).isEqualTo("opus");
        assertThat(decide(3_000, 0.10, null, fleet()).tier()).isEqualTo("opus");
        RouteDecision plain = decide(300, 0.20, null, fleet());
        assertThat(plain.fallbackTriggered()).isFalse();
        assertThat(plain.rulesFired()).contains("tier_table:haiku");
    }

    @Test
    void aPinChoosesTheTier() {
        RouteDecision pinned = decide(100, 0.10, "opus", fleet());
        assertThat(pinned.tier()).isEqualTo("opus");
        assertThat(pinned.rulesFired()).contains("pin:opus");
    }

    @Test
    void highComplexityFallsOneTierUnlessPinnedThenWarns() {
        RouteDecision unpinned = decide(3_000, 0.97, null, fleet());
        assertThat(unpinned.tier()).isEqualTo("sonnet");
        assertThat(unpinned.fallbackTriggered()).isTrue();
        assertThat(unpinned.fallbackReason()).isEqualTo("high_complexity_fallback");

        RouteDecision pinned = decide(3_000, 0.97, "opus", fleet());
        assertThat(pinned.tier()).isEqualTo("opus");
        assertThat(pinned.fallbackTriggered()).isFalse();
        assertThat(pinned.warning()).isEqualTo("high_complexity_fallback");
    }

    @Test
    void anUnhealthyTargetClusterFallsToItsStandbyThenAlongTheChainEvenWhenPinned() {
        List<NodeCandidate> sonnetDown = fleet("sonnet-a100-40g", n -> with(n, NodeState.UNAVAILABLE, 0.2, false));
        RouteDecision standby = decide(1_000, 0.5, "sonnet", sonnetDown);
        assertThat(standby.cluster()).isEqualTo("sonnet-standby");
        assertThat(standby.fallbackReason()).isEqualTo("target_cluster_unavailable");

        List<NodeCandidate> allSonnetDown = new ArrayList<>();
        for (NodeCandidate n : sonnetDown) {
            allSonnetDown.add(n.cluster().equals("sonnet-standby") ? with(n, NodeState.DOWN, 0.2, false) : n);
        }
        RouteDecision haiku = decide(1_000, 0.5, "sonnet", allSonnetDown);
        assertThat(haiku.tier()).isEqualTo("haiku");
        assertThat(haiku.fallbackReason()).isEqualTo("target_cluster_unavailable");
        assertThat(haiku.rulesFired()).anySatisfy(r -> assertThat(r).startsWith("cluster_unhealthy:sonnet-a100-40g"));
    }

    @Test
    void whenEveryClusterOfTheChainIsUnhealthyAHealthyNodeInOneOfThemStillServes() {
        // every node UNAVAILABLE except one sonnet node: each cluster is below the 0.70 mark
        List<NodeCandidate> nearlyDead = new ArrayList<>(fleet());
        String survivor = nearlyDead.stream().filter(n -> n.cluster().equals("sonnet-a100-40g")).findFirst()
                .orElseThrow().nodeId();
        nearlyDead.replaceAll(n -> n.nodeId().equals(survivor) ? n : with(n, NodeState.UNAVAILABLE, 0.0, false));
        RouteDecision lastResort = decide(1_000, 0.5, "sonnet", nearlyDead);
        assertThat(lastResort.servable()).isTrue();
        assertThat(lastResort.node()).isEqualTo(survivor);
        assertThat(lastResort.tier()).isEqualTo("sonnet");
        assertThat(lastResort.rulesFired()).contains("last_resort_unhealthy_cluster:sonnet-a100-40g");
    }

    @Test
    void peakShapingSendsMidComplexitySonnetTrafficToHaikuWhileSonnetIsBusy() {
        List<NodeCandidate> busy = fleet("sonnet-a100-40g", n -> with(n, NodeState.HEALTHY, 0.95, false));
        busy = new ArrayList<>(busy);
        busy.replaceAll(n -> n.cluster().equals("sonnet-standby") ? with(n, NodeState.HEALTHY, 0.95, false) : n);
        RouteDecision shaped = decide(1_000, 0.45, null, busy);
        assertThat(shaped.tier()).isEqualTo("haiku");
        assertThat(shaped.fallbackReason()).isEqualTo("peak_load_shaping");

        assertThat(decide(1_000, 0.58, null, busy).tier()).isEqualTo("sonnet");
        assertThat(decide(1_000, 0.45, "sonnet", busy).tier()).isEqualTo("sonnet");
        assertThat(decide(1_000, 0.45, null, fleet()).tier()).isEqualTo("sonnet");
    }

    @Test
    void aLoadSpikeRedirectsToTheStandbyCluster() {
        List<NodeCandidate> spiking = fleet("sonnet-a100-40g", n -> with(n, NodeState.HEALTHY, 0.5, true));
        RouteDecision redirected = decide(1_000, 0.5, null, spiking);
        assertThat(redirected.cluster()).isEqualTo("sonnet-standby");
        assertThat(redirected.fallbackReason()).isEqualTo("load_spike_redirect");
        // the primary's nodes stay next in line for bypass
        assertThat(redirected.ranked()).startsWith("standby-1").contains("sonnet-1");
    }

    @Test
    void nodeChoiceSkipsUnroutableNodesAndOpenBreakersAndPrefersThePrefixHolder() {
        List<NodeCandidate> nodes = new ArrayList<>(fleet());
        nodes.replaceAll(n -> switch (n.nodeId()) {
            case "haiku-1" -> new NodeCandidate("haiku-1", "haiku", "haiku-l4", NodeState.HEALTHY, 0.95, 0.2, 0, 8, 0,
                    false, 6, false);
            default -> n;
        });
        // small nodes, so the cluster stays above the 0.70 health mark with them out
        nodes.add(new NodeCandidate("haiku-3", "haiku", "haiku-l4", NodeState.WARMING, 0, 0, 0, 1, 0, false, 8, false));
        nodes.add(new NodeCandidate("haiku-4", "haiku", "haiku-l4", NodeState.HEALTHY, 1.0, 0, 0, 1, 0, true, 8, false));

        RouteDecision decision = engine.decide(new DecisionInput(200, 0.1, null, null, 8), nodes, policy);

        assertThat(decision.node()).isEqualTo("haiku-1");
        assertThat(decision.cacheHit()).isTrue();
        assertThat(decision.ranked()).doesNotContain("haiku-3", "haiku-4").doesNotHaveDuplicates();
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("haiku-3"))
                .singleElement().extracting(ScoredCandidate::excludedBecause).isEqualTo("state WARMING");
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("haiku-4"))
                .singleElement().extracting(ScoredCandidate::excludedBecause).isEqualTo("circuit open");
        // the decision event carries each candidate's breaker, open or not
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("haiku-4")).singleElement()
                .extracting(c -> c.forEvent().breakerOpen()).isEqualTo(true);
        assertThat(decision.candidates()).filteredOn(c -> c.nodeId().equals("haiku-1")).singleElement()
                .extracting(c -> c.forEvent().breakerOpen()).isEqualTo(false);
        assertThat(decision.ranked()).hasSizeLessThanOrEqualTo(1 + policy.resilience().hopLimit());
    }

    @Test
    void theStickyNodeWinsATieButYieldsWhenDegradedOrOverloaded() {
        RouteDecision sticky = engine.decide(new DecisionInput(200, 0.1, null, "haiku-2", 0), fleet(), policy);
        assertThat(sticky.node()).isEqualTo("haiku-2");

        List<NodeCandidate> degraded = new ArrayList<>(fleet());
        degraded.replaceAll(n -> n.nodeId().equals("haiku-2") ? with(n, NodeState.DEGRADED, 0.2, false) : n);
        assertThat(engine.decide(new DecisionInput(200, 0.1, null, "haiku-2", 0), degraded, policy).node())
                .isEqualTo("haiku-1");

        List<NodeCandidate> overloaded = new ArrayList<>(fleet());
        overloaded.replaceAll(n -> n.nodeId().equals("haiku-2") ? with(n, NodeState.HEALTHY, 0.95, false) : n);
        assertThat(engine.decide(new DecisionInput(200, 0.1, null, "haiku-2", 0), overloaded, policy).node())
                .isEqualTo("haiku-1");
    }

    @Test
    void routerInFlightCountsInLoad() {
        List<NodeCandidate> nodes = new ArrayList<>(fleet());
        nodes.replaceAll(n -> n.nodeId().equals("haiku-1") ? new NodeCandidate("haiku-1", "haiku", "haiku-l4",
                NodeState.HEALTHY, 0.95, 0.2, 0, 8, 8, false, 0, false) : n);
        assertThat(decide(200, 0.1, null, nodes).node()).isEqualTo("haiku-2");
    }

    @Test
    void noRoutableNodeAnywhereMeansNoNode() {
        List<NodeCandidate> dead = new ArrayList<>(fleet());
        dead.replaceAll(n -> with(n, NodeState.DOWN, 0, false));
        RouteDecision none = decide(200, 0.1, null, dead);
        assertThat(none.servable()).isFalse();
        assertThat(none.rulesFired()).contains("no_node_available");
        assertThat(decide(200, 0.1, null, List.of()).servable()).isFalse();
    }
}
