package dev.zerolayer.routing.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each tier's clusters: the policy's, then those its nodes registered under, standbys out; rebuilt when either changes. */
class ClusterPlanTest {

    private final PolicyDocument policy = PolicyDocument.defaults();

    private static NodeCandidate node(String id, String tier, String cluster, double load) {
        return new NodeCandidate(id, tier, cluster, NodeState.HEALTHY, 0.95, load, 0, 8, 0, false, 0, false);
    }

    private static List<NodeCandidate> fleet(double load, String secondSonnetCluster) {
        return List.of(node("haiku-1", "haiku", "haiku-l4", load),
                node("sonnet-1", "sonnet", "sonnet-a100-40g", load),
                node("sonnet-2", "sonnet", secondSonnetCluster, load),
                node("standby-1", "sonnet", "sonnet-standby", load),
                node("opus-1", "opus", "opus-a100-80g", load));
    }

    @Test
    void policyClustersFirstThenRegisteredOnesSortedWithoutStandbys() {
        ClusterPlan plan = new ClusterPlan.Cache().plan(policy, fleet(0.2, "sonnet-h100"));

        assertThat(plan.declared("sonnet")).containsExactly("sonnet-a100-40g", "sonnet-h100");
        assertThat(plan.primary("sonnet")).isEqualTo("sonnet-a100-40g");
        assertThat(plan.declared("haiku")).containsExactly("haiku-l4");
        assertThat(plan.declared("unknown")).isEmpty();
        assertThat(plan.primary("unknown")).isNull();
    }

    @Test
    void aTierOnlyNodesNameIsPlannedFromTheirClusters() {
        List<NodeCandidate> fleet = List.of(node("mini-2", "mini", "mini-b", 0), node("mini-1", "mini", "mini-a", 0));

        assertThat(new ClusterPlan.Cache().plan(policy, fleet).declared("mini")).containsExactly("mini-a", "mini-b");
    }

    @Test
    void reusedWhileThePolicyAndLayoutStayRebuiltWhenEitherChanges() {
        ClusterPlan.Cache cache = new ClusterPlan.Cache();
        ClusterPlan first = cache.plan(policy, fleet(0.2, "sonnet-a100-40g"));

        assertThat(cache.plan(policy, fleet(0.9, "sonnet-a100-40g")))
                .as("only the nodes' state changed").isSameAs(first);
        ClusterPlan moved = cache.plan(policy, fleet(0.2, "sonnet-h100"));
        assertThat(moved).isNotSameAs(first);
        assertThat(moved.declared("sonnet")).containsExactly("sonnet-a100-40g", "sonnet-h100");
        PolicyDocument edited = PolicyDocument.defaults();
        assertThat(cache.plan(edited, fleet(0.2, "sonnet-h100"))).isNotSameAs(moved);
        assertThat(cache.plan(policy, fleet(0.2, "sonnet-h100").subList(0, 3))).isNotSameAs(moved);
    }

    @Test
    void theCacheKeepsAlternatingLayoutsAndForgetsTheOldest() {
        ClusterPlan.Cache cache = new ClusterPlan.Cache();
        List<NodeCandidate> whole = fleet(0.2, "sonnet-a100-40g");
        List<NodeCandidate> part = whole.subList(0, 2);

        ClusterPlan forWhole = cache.plan(policy, whole);
        ClusterPlan forPart = cache.plan(policy, part);

        assertThat(forPart).isNotSameAs(forWhole);
        assertThat(cache.plan(policy, fleet(0.7, "sonnet-a100-40g"))).isSameAs(forWhole);
        assertThat(cache.plan(policy, part)).isSameAs(forPart);
        for (int i = 0; i < ClusterPlan.Cache.SIZE; i++) {
            cache.plan(policy, List.of(node("n" + i, "haiku", "c" + i, 0)));
        }
        assertThat(cache.plan(policy, whole)).as("pushed out by newer layouts").isNotSameAs(forWhole);
    }

    @Test
    void anEngineFollowsANodeThatMovedToANewCluster() {
        DecisionEngine engine = new DecisionEngine();
        DecisionInput input = new DecisionInput(1_000, 0.5, null, null, 0);
        List<NodeCandidate> before = List.of(node("sonnet-1", "sonnet", "sonnet-a100-40g", 0.2));
        assertThat(engine.decide(input, before, policy).cluster()).isEqualTo("sonnet-a100-40g");

        List<NodeCandidate> after = List.of(node("sonnet-1", "sonnet", "sonnet-h100", 0.2));
        RouteDecision moved = engine.decide(input, after, policy);

        assertThat(moved.cluster()).isEqualTo("sonnet-h100");
        assertThat(moved.node()).isEqualTo("sonnet-1");
    }
}
