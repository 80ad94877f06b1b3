package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Each tier's declared clusters for one policy and one fleet layout (every node's tier and cluster, in order): the
 * tier's clusters from the policy, then the clusters its nodes registered under, sorted, standbys left out; reused
 * while the policy object and the layout stay the same, so a request does not rebuild them.
 */
final class ClusterPlan {

    private final PolicyDocument policy;
    private final String[] tiers;
    private final String[] clusters;
    private final Map<String, List<String>> declared;

    private ClusterPlan(PolicyDocument policy, List<NodeCandidate> fleet) {
        this.policy = policy;
        this.tiers = new String[fleet.size()];
        this.clusters = new String[fleet.size()];
        for (int i = 0; i < tiers.length; i++) {
            tiers[i] = fleet.get(i).tier();
            clusters[i] = fleet.get(i).cluster();
        }
        Set<String> standbys = Set.copyOf(policy.standbyClusters().values());
        Map<String, Set<String>> registered = new HashMap<>();
        for (int i = 0; i < tiers.length; i++) {
            if (!standbys.contains(clusters[i])) {
                registered.computeIfAbsent(tiers[i], t -> new TreeSet<>()).add(clusters[i]);
            }
        }
        Map<String, List<String>> byTier = new HashMap<>();
        for (TierSpec spec : policy.tiers()) {
            byTier.putIfAbsent(spec.name(), ordered(spec.clusters(), registered.get(spec.name())));
        }
        registered.forEach((tier, names) -> byTier.putIfAbsent(tier, List.copyOf(names)));
        this.declared = Map.copyOf(byTier);
    }

    private static List<String> ordered(List<String> fromPolicy, Set<String> fromNodes) {
        Set<String> order = new LinkedHashSet<>(fromPolicy);
        if (fromNodes != null) {
            order.addAll(fromNodes);
        }
        return List.copyOf(order);
    }

    /**
     * The last few plans made, newest first: a request decided over the whole fleet and then over the nodes of its own
     * API alone (or per API key's policy) alternates between layouts, and each keeps its plan.
     */
    static final class Cache {

        static final int SIZE = 4;
        private volatile ClusterPlan[] plans = new ClusterPlan[0];

        ClusterPlan plan(PolicyDocument policy, List<NodeCandidate> fleet) {
            ClusterPlan[] current = plans;
            for (ClusterPlan plan : current) {
                if (plan.madeFor(policy, fleet)) {
                    return plan;
                }
            }
            ClusterPlan made = new ClusterPlan(policy, fleet);
            ClusterPlan[] next = new ClusterPlan[Math.min(SIZE, current.length + 1)];
            next[0] = made;
            System.arraycopy(current, 0, next, 1, next.length - 1);
            plans = next;
            return made;
        }
    }

    private boolean madeFor(PolicyDocument policy, List<NodeCandidate> fleet) {
        if (policy != this.policy || fleet.size() != tiers.length) {
            return false;
        }
        for (int i = 0; i < tiers.length; i++) {
            NodeCandidate node = fleet.get(i);
            if (!tiers[i].equals(node.tier()) || !clusters[i].equals(node.cluster())) {
                return false;
            }
        }
        return true;
    }

    /** The tier's clusters in declared order (empty for a tier neither the policy nor any node names). */
    List<String> declared(String tier) {
        return declared.getOrDefault(tier, List.of());
    }

    /** The first of the tier's clusters, or null. */
    String primary(String tier) {
        List<String> clusters = declared(tier);
        return clusters.isEmpty() ? null : clusters.get(0);
    }

}
