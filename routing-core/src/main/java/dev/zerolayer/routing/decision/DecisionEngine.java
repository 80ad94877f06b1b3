package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.routing.health.ClusterHealth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SPEC section 3 as a pure function of the request, the fleet and the policy: the tier rules in order (table, pin,
 * high complexity, peak shaping: {@link RoutingRules}); the tiers whose context window holds the prompt along the
 * tier's chain; per tier its clusters, a spiking primary's standby first (rule 6), a cluster below the health mark
 * passed over, pinned or not (rule 7); in each cluster the policy's node pipeline (filters, weighted scorers, picker:
 * {@link DecisionPlugins}) ranks the nodes (rule 8); the best eligible node serves, the rest are the bypass order.
 */
public final class DecisionEngine {

    public static final String HIGH_COMPLEXITY_FALLBACK = FallbackReason.HIGH_COMPLEXITY_FALLBACK.wire();
    public static final String TARGET_CLUSTER_UNAVAILABLE = FallbackReason.TARGET_CLUSTER_UNAVAILABLE.wire();
    public static final String PEAK_LOAD_SHAPING = FallbackReason.PEAK_LOAD_SHAPING.wire();
    public static final String LOAD_SPIKE_REDIRECT = FallbackReason.LOAD_SPIKE_REDIRECT.wire();
    public static final String CONTEXT_WINDOW_EXCEEDED = FallbackReason.CONTEXT_WINDOW_EXCEEDED.wire();

    private final DecisionPlugins plugins;
    private final RoutingRules rules;
    /** The recent requests' cluster plans, reused while the policy and the fleet's layout stay the same. */
    private final ClusterPlan.Cache plans = new ClusterPlan.Cache();

    public DecisionEngine(DecisionPlugins plugins, RoutingRules rules) {
        this.plugins = plugins;
        this.rules = rules;
    }

    /** routing-core's own plugins and SPEC's rules. */
    public DecisionEngine() {
        this(DecisionPlugins.builtIn(), RoutingRules.standard());
    }

    public DecisionPlugins plugins() {
        return plugins;
    }

    public RouteDecision decide(DecisionInput input, List<NodeCandidate> nodes, PolicyDocument policy) {
        Thresholds thresholds = policy.thresholds();
        NodePipeline pipeline = plugins.pipeline(policy.scoring());
        List<NodeCandidate> fleet = pipeline.admitted(nodes, input);
        ClusterPlan clusters = plans.plan(policy, fleet);
        TierChoice choice = rules.apply(input, policy, fleet);
        List<RuleFired> fired = new ArrayList<>(choice.fired());
        List<FallbackReason> fallbacks = new ArrayList<>(choice.fallbacks());
        String targetTier = choice.tier();

        List<String> tiers = fitting(targetTier, input, policy, fired);
        if (!fits(targetTier, input.tokenCount(targetTier), policy)) {
            fallbacks.add(0, FallbackReason.CONTEXT_WINDOW_EXCEEDED);
        }
        Map<String, List<ScoredCandidate>> scoredByCluster = new LinkedHashMap<>();
        Map<String, String> tierOfCluster = new LinkedHashMap<>();
        String chosenTier = null;
        String chosenCluster = null;
        boolean spikeRedirect = false;
        List<String> ranked = new ArrayList<>();
        for (String candidateTier : tiers) {
            for (String cluster : clusterOrder(clusters.declared(candidateTier), policy, fleet, fired, pipeline, input)) {
                List<ScoredCandidate> scored = scoredByCluster.computeIfAbsent(cluster,
                        c -> pipeline.score(c, candidateTier, input, fleet));
                tierOfCluster.putIfAbsent(cluster, candidateTier);
                if (chosenCluster == null) {
                    double health = clusterHealth(cluster, fleet, pipeline, input);
                    if (health < thresholds.clusterHealthMin()) {
                        fired.add(RuleFired.unhealthy(cluster, health));
                        continue;
                    }
                    if (scored.stream().noneMatch(ScoredCandidate::eligible)) {
                        fired.add(RuleFired.of(RuleFired.Kind.CLUSTER_NO_ELIGIBLE_NODE, cluster));
                        continue;
                    }
                    chosenTier = candidateTier;
                    chosenCluster = cluster;
                }
                for (ScoredCandidate candidate : scored) {
                    if (candidate.eligible() && !ranked.contains(candidate.nodeId())) {
                        ranked.add(candidate.nodeId());
                    }
                }
            }
        }
        for (RuleFired rule : fired) {
            spikeRedirect |= rule.kind() == RuleFired.Kind.LOAD_SPIKE_REDIRECT;
        }
        List<ScoredCandidate> allScored = new ArrayList<>();
        scoredByCluster.values().forEach(allScored::addAll);
        if (chosenCluster == null) {
            // Every cluster of the chain is below the health mark: a routable node of an unhealthy cluster still
            // serves better than no node at all (the chain's order decides which cluster goes first).
            for (Map.Entry<String, List<ScoredCandidate>> cluster : scoredByCluster.entrySet()) {
                List<String> eligible = cluster.getValue().stream().filter(ScoredCandidate::eligible)
                        .map(ScoredCandidate::nodeId).toList();
                if (eligible.isEmpty()) {
                    continue;
                }
                if (chosenCluster == null) {
                    chosenCluster = cluster.getKey();
                    chosenTier = tierOfCluster.get(chosenCluster);
                    fired.add(RuleFired.of(RuleFired.Kind.LAST_RESORT, chosenCluster));
                }
                eligible.stream().filter(node -> !ranked.contains(node)).forEach(ranked::add);
            }
        }
        if (chosenCluster == null) {
            fired.add(RuleFired.of(RuleFired.Kind.NO_NODE_AVAILABLE));
            return new RouteDecision(targetTier, null, null, List.of(), allScored, fired, first(fallbacks),
                    choice.warning(), false, pipeline);
        }
        if (!chosenTier.equals(targetTier) || !chosenCluster.equals(clusters.primary(targetTier))) {
            fallbacks.add(spikeRedirect && chosenTier.equals(targetTier) ? FallbackReason.LOAD_SPIKE_REDIRECT
                    : FallbackReason.TARGET_CLUSTER_UNAVAILABLE);
        }
        int hops = policy.resilience().hopLimit();
        List<String> attempts = ranked.subList(0, Math.min(ranked.size(), 1 + Math.max(0, hops)));
        String node = attempts.get(0);
        NodeCandidate served = fleet.stream().filter(c -> c.nodeId().equals(node)).findFirst().orElseThrow();
        boolean cacheHit = input.promptBlocks() > 0
                && Math.min(1.0, (double) served.prefixBlocksHeld() / input.promptBlocks())
                        >= thresholds.cacheHitBlockShare();
        fired.add(RuleFired.of(RuleFired.Kind.NODE_SCORE, node));
        return new RouteDecision(chosenTier, chosenCluster, node, attempts, allScored, fired, first(fallbacks),
                choice.warning(), cacheHit, pipeline, PredictedTtft.of(served, input));
    }

    /**
     * The tier rules that do not read the fleet (table, pin, high complexity): the tier a request maps to before
     * load, with its trace; for baselines, calibration and dry runs.
     */
    public static TierMapping mapTier(DecisionInput input, PolicyDocument policy) {
        TierChoice choice = RoutingRules.standard().map(input, policy);
        List<String> wire = new ArrayList<>(choice.fired().size());
        choice.fired().forEach(rule -> wire.add(rule.wire()));
        FallbackReason fallback = first(choice.fallbacks());
        return new TierMapping(choice.tier(), wire, fallback == null ? null : fallback.wire(),
                choice.warning() == null ? null : choice.warning().wire());
    }

    private static FallbackReason first(List<FallbackReason> reasons) {
        return reasons.isEmpty() ? null : reasons.get(0);
    }

    /**
     * The tiers to try: the target's chain without the tiers whose context window the prompt exceeds (each named in a
     * {@code context_window:} rule); when none of the chain holds it, every tier of the policy that does, in order.
     */
    private static List<String> fitting(String tier, DecisionInput input, PolicyDocument policy,
            List<RuleFired> fired) {
        List<String> chain = chainOf(tier, policy);
        List<String> fitting = new ArrayList<>(chain.size());
        for (String candidate : chain) {
            if (fits(candidate, input.tokenCount(candidate), policy)) {
                fitting.add(candidate);
            } else {
                fired.add(RuleFired.of(RuleFired.Kind.CONTEXT_WINDOW, candidate));
            }
        }
        if (fitting.isEmpty()) {
            for (String name : RoutingRules.tierOrder(policy)) {
                if (fits(name, input.tokenCount(name), policy)) {
                    fitting.add(name);
                }
            }
        }
        return fitting;
    }

    /** Whether a prompt of {@code tokens} fits the tier's context window. */
    public static boolean fits(String tier, int tokens, PolicyDocument policy) {
        return tokens <= contextTokens(tier, policy);
    }

    /** The tier's context window (the policy's, else the default). */
    public static int contextTokens(String tier, PolicyDocument policy) {
        TierLimits limits = policy.limits().get(tier);
        return limits == null ? TierLimits.DEFAULT_CONTEXT_TOKENS : limits.contextTokens();
    }

    /** The tier itself, then its fallback chain, each tier once. */
    private static List<String> chainOf(String tier, PolicyDocument policy) {
        Set<String> chain = new LinkedHashSet<>();
        chain.add(tier);
        chain.addAll(policy.chains().getOrDefault(tier, List.of()));
        return new ArrayList<>(chain);
    }

    /** SPEC rule 6: a tier's clusters in the order to try, a spiking primary's standby before it; other standbys last. */
    private static List<String> clusterOrder(List<String> declared, PolicyDocument policy,
            List<NodeCandidate> fleet, List<RuleFired> fired, NodePipeline pipeline, DecisionInput input) {
        List<String> order = new ArrayList<>(declared.size() + 1);
        List<String> standbysLast = new ArrayList<>(1);
        for (String cluster : declared) {
            String standby = policy.standbyClusters().get(cluster);
            if (standby != null && spiking(cluster, fleet)
                    && clusterHealth(standby, fleet, pipeline, input) >= policy.thresholds().clusterHealthMin()) {
                fired.add(RuleFired.of(RuleFired.Kind.LOAD_SPIKE_REDIRECT, cluster + "->" + standby));
                order.add(standby);
                order.add(cluster);
            } else {
                order.add(cluster);
                if (standby != null) {
                    standbysLast.add(standby);
                }
            }
        }
        standbysLast.stream().filter(s -> !order.contains(s)).forEach(order::add);
        return order;
    }

    private static boolean spiking(String cluster, List<NodeCandidate> fleet) {
        for (NodeCandidate node : fleet) {
            if (node.clusterLoadSpike() && node.cluster().equals(cluster)) {
                return true;
            }
        }
        return false;
    }

    /**
     * SPEC rule 7's measure: the capacity-weighted health of a cluster's nodes, a node the pipeline's filters exclude
     * counting 0.
     */
    static double clusterHealth(String cluster, List<NodeCandidate> fleet, NodePipeline pipeline,
            DecisionInput input) {
        List<ClusterHealth.Member> members = new ArrayList<>();
        for (NodeCandidate n : fleet) {
            if (n.cluster().equals(cluster)) {
                boolean serves = pipeline.excluded(n, input) == null;
                members.add(new ClusterHealth.Member(n.capacity(), serves ? n.healthScore() : 0.0));
            }
        }
        return ClusterHealth.of(members);
    }
}
