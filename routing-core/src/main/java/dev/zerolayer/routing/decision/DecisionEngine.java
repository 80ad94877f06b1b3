package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.routing.health.ClusterHealth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SPEC section 3, rules 2 to 8, as a pure function of the request, the fleet and the policy: tier table; pin; high
 * complexity (fall one tier unless pinned, then only warn); peak shaping (sonnet-bound mid-complexity requests to haiku
 * while sonnet is above its load mark); load-spike redirect to the standby cluster; cluster health below the mark falls
 * along the tier's chain, pinned or not; then the best-scoring eligible node, with the rest ranked for bypass.
 */
public final class DecisionEngine {

    public static final String HIGH_COMPLEXITY_FALLBACK = "high_complexity_fallback";
    public static final String TARGET_CLUSTER_UNAVAILABLE = "target_cluster_unavailable";
    public static final String PEAK_LOAD_SHAPING = "peak_load_shaping";
    public static final String LOAD_SPIKE_REDIRECT = "load_spike_redirect";
    /** Fallback reason when the prompt does not fit the target tier's context window. */
    public static final String CONTEXT_WINDOW_EXCEEDED = "context_window_exceeded";
    /** Rule fired when every cluster of the chain is below the health mark and one of them serves anyway. */
    public static final String LAST_RESORT = "last_resort_unhealthy_cluster";
    /** Prefix of the rule naming the tier-table row's tier, e.g. {@code tier_table:sonnet}. */
    public static final String RULE_TIER_TABLE = "tier_table:";
    /** Prefix of the rule naming a pinned tier, e.g. {@code pin:opus}. */
    public static final String RULE_PIN = "pin:";

    /** Eligible nodes first, then by score, highest first, then by node id. */
    private static final Comparator<ScoredCandidate> RANKING = Comparator.comparing(ScoredCandidate::eligible)
            .reversed().thenComparing(Comparator.comparingDouble(ScoredCandidate::score).reversed())
            .thenComparing(ScoredCandidate::nodeId);

    private final NodeScoring scoring;

    public DecisionEngine(NodeScoring scoring) {
        this.scoring = scoring;
    }

    public DecisionEngine() {
        this(NodeScoring.defaults());
    }

    public RouteDecision decide(DecisionInput input, List<NodeCandidate> fleet, PolicyDocument policy) {
        Thresholds thresholds = policy.thresholds();
        List<String> tierOrder = policy.tiers().stream().map(TierSpec::name).toList();
        boolean pinned = input.pinnedTier() != null;

        TierMapping mapping = mapTier(input, policy);
        List<String> rules = new ArrayList<>(mapping.rulesFired());
        List<String> fallbacks = new ArrayList<>();
        if (mapping.fallbackReason() != null) {
            fallbacks.add(mapping.fallbackReason());
        }
        String warning = mapping.warning();
        String tier = mapping.tier();
        if (!pinned && tierOrder.indexOf(tier) == 1 && input.complexity() >= thresholds.peakBandLow()
                && input.complexity() <= thresholds.peakBandHigh()
                && tierLoad(tier, fleet) > thresholds.peakLoadMark()) {
            tier = tierOrder.get(0);
            fallbacks.add(PEAK_LOAD_SHAPING);
            rules.add(PEAK_LOAD_SHAPING + ":" + tier);
        }

        Map<String, List<ScoredCandidate>> scoredByCluster = new LinkedHashMap<>();
        Map<String, String> tierOfCluster = new LinkedHashMap<>();
        List<ScoredCandidate> allScored = new ArrayList<>();
        String chosenTier = null;
        String chosenCluster = null;
        List<String> ranked = new ArrayList<>();
        String targetTier = tier;
        List<String> tiers = fitting(targetTier, input.tokenCount(), policy, rules);
        if (!fits(targetTier, input.tokenCount(), policy)) {
            fallbacks.add(0, CONTEXT_WINDOW_EXCEEDED);
        }
        for (String candidateTier : tiers) {
            for (String cluster : clusterOrder(candidateTier, policy, fleet, rules)) {
                List<ScoredCandidate> scored = scoredByCluster.computeIfAbsent(cluster,
                        c -> score(c, candidateTier, input, fleet));
                tierOfCluster.putIfAbsent(cluster, candidateTier);
                if (chosenCluster == null) {
                    double health = clusterHealth(cluster, fleet);
                    if (health < thresholds.clusterHealthMin()) {
                        rules.add(String.format(java.util.Locale.ROOT, "cluster_unhealthy:%s(%.2f)", cluster,
                                health));
                        continue;
                    }
                    if (scored.stream().noneMatch(ScoredCandidate::eligible)) {
                        rules.add("cluster_no_eligible_node:" + cluster);
                        continue;
                    }
                    chosenTier = candidateTier;
                    chosenCluster = cluster;
                }
                scored.stream().filter(ScoredCandidate::eligible).map(ScoredCandidate::nodeId)
                        .filter(node -> !ranked.contains(node)).forEach(ranked::add);
            }
        }
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
                    rules.add(LAST_RESORT + ":" + chosenCluster);
                }
                eligible.stream().filter(node -> !ranked.contains(node)).forEach(ranked::add);
            }
        }
        if (chosenCluster == null) {
            rules.add("no_node_available");
            return new RouteDecision(targetTier, null, null, List.of(), allScored, rules, !fallbacks.isEmpty(),
                    fallbacks.isEmpty() ? null : fallbacks.get(0), warning, false);
        }
        if (!chosenTier.equals(targetTier) || !chosenCluster.equals(primaryCluster(targetTier, policy, fleet))) {
            String reason = rules.stream().anyMatch(r -> r.startsWith(LOAD_SPIKE_REDIRECT))
                    && chosenTier.equals(targetTier) ? LOAD_SPIKE_REDIRECT : TARGET_CLUSTER_UNAVAILABLE;
            fallbacks.add(reason);
        }
        int hops = policy.resilience().hopLimit();
        List<String> attempts = ranked.subList(0, Math.min(ranked.size(), 1 + Math.max(0, hops)));
        String node = attempts.get(0);
        ScoredCandidate chosen = allScored.stream().filter(c -> c.nodeId().equals(node)).findFirst().orElseThrow();
        boolean cacheHit = input.promptBlocks() > 0 && chosen.prefixShare() >= thresholds.cacheHitBlockShare();
        rules.add("node_score:" + node);
        return new RouteDecision(chosenTier, chosenCluster, node, attempts, allScored, rules, !fallbacks.isEmpty(),
                fallbacks.isEmpty() ? null : fallbacks.get(0), warning, cacheHit);
    }

    /**
     * Rules 2 to 4 alone, independent of the fleet: the tier table ({@value #RULE_TIER_TABLE}), the pin
     * ({@value #RULE_PIN}), and above the high-complexity mark one tier down (unpinned) or a warning (pinned).
     */
    public static TierMapping mapTier(DecisionInput input, PolicyDocument policy) {
        List<String> rules = new ArrayList<>();
        String fallbackReason = null;
        String warning = null;
        List<String> tierOrder = policy.tiers().stream().map(TierSpec::name).toList();
        boolean pinned = input.pinnedTier() != null;

        String tier = tierFromTable(policy.tierTable(), input.tokenCount(), input.complexity(), tierOrder);
        rules.add(RULE_TIER_TABLE + tier);
        if (pinned) {
            tier = input.pinnedTier();
            rules.add(RULE_PIN + tier);
        }
        if (input.complexity() > policy.thresholds().highComplexity()) {
            if (pinned) {
                warning = HIGH_COMPLEXITY_FALLBACK;
                rules.add("high_complexity_warning");
            } else {
                String lower = below(tier, tierOrder);
                if (lower != null) {
                    tier = lower;
                    fallbackReason = HIGH_COMPLEXITY_FALLBACK;
                    rules.add(HIGH_COMPLEXITY_FALLBACK + ":" + tier);
                }
            }
        }
        return new TierMapping(tier, rules, fallbackReason, warning);
    }

    static String tierFromTable(List<TierRule> table, int tokens, double complexity, List<String> tierOrder) {
        for (TierRule rule : table) {
            if (tokens <= rule.maxTokens() && complexity <= rule.maxComplexity()) {
                return rule.tier();
            }
        }
        return tierOrder.get(tierOrder.size() - 1);
    }

    private static String below(String tier, List<String> tierOrder) {
        int index = tierOrder.indexOf(tier);
        return index > 0 ? tierOrder.get(index - 1) : null;
    }

    /**
     * The tiers to try: the target's chain without the tiers whose context window the prompt exceeds (each named in a
     * {@code context_window:} rule); when none of the chain holds it, every tier of the policy that does, in order.
     */
    private static List<String> fitting(String tier, int tokens, PolicyDocument policy, List<String> rules) {
        List<String> chain = chainOf(tier, policy);
        List<String> fitting = new ArrayList<>(chain.size());
        for (String candidate : chain) {
            if (fits(candidate, tokens, policy)) {
                fitting.add(candidate);
            } else {
                rules.add("context_window:" + candidate);
            }
        }
        if (fitting.isEmpty()) {
            for (TierSpec spec : policy.tiers()) {
                if (fits(spec.name(), tokens, policy)) {
                    fitting.add(spec.name());
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

    private static String primaryCluster(String tier, PolicyDocument policy, List<NodeCandidate> fleet) {
        List<String> clusters = declaredClusters(tier, policy, fleet);
        return clusters.isEmpty() ? null : clusters.get(0);
    }

    /** The tier's clusters from the policy, then clusters nodes registered under the tier, then standbys. */
    private static List<String> declaredClusters(String tier, PolicyDocument policy, List<NodeCandidate> fleet) {
        Set<String> clusters = new LinkedHashSet<>();
        policy.tiers().stream().filter(t -> t.name().equals(tier)).findFirst()
                .ifPresent(spec -> clusters.addAll(spec.clusters()));
        Set<String> standbys = new LinkedHashSet<>(policy.standbyClusters().values());
        fleet.stream().filter(n -> n.tier().equals(tier) && !standbys.contains(n.cluster()))
                .map(NodeCandidate::cluster).sorted().forEach(clusters::add);
        return new ArrayList<>(clusters);
    }

    /** Clusters of a tier in the order to try: a spiking primary's standby goes before it; other standbys last. */
    private List<String> clusterOrder(String tier, PolicyDocument policy, List<NodeCandidate> fleet,
            List<String> rules) {
        List<String> order = new ArrayList<>();
        List<String> standbysLast = new ArrayList<>();
        for (String cluster : declaredClusters(tier, policy, fleet)) {
            String standby = policy.standbyClusters().get(cluster);
            if (standby != null && spiking(cluster, fleet)
                    && clusterHealth(standby, fleet) >= policy.thresholds().clusterHealthMin()) {
                rules.add(LOAD_SPIKE_REDIRECT + ":" + cluster + "->" + standby);
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

    private List<ScoredCandidate> score(String cluster, String tier, DecisionInput input, List<NodeCandidate> fleet) {
        List<ScoredCandidate> scored = new ArrayList<>();
        for (NodeCandidate node : fleet) {
            if (!node.cluster().equals(cluster)) {
                continue;
            }
            String excluded = !node.state().routable() ? "state " + node.state()
                    : node.breakerOpen() ? "circuit open" : null;
            double prefixShare = input.promptBlocks() == 0 ? 0.0
                    : Math.min(1.0, (double) node.prefixBlocksHeld() / input.promptBlocks());
            double loadTerm = 1.0 - Math.min(1.0, node.effectiveLoad());
            double queueTerm = 1.0 / (1.0 + (double) node.queueDepth() / Math.max(1, node.capacity()));
            double healthTerm = node.healthScore();
            double sticky = node.nodeId().equals(input.stickyNode()) && node.state() == NodeState.HEALTHY
                    && node.effectiveLoad() < scoring.stickyMaxLoad() ? scoring.sticky() : 0.0;
            double score = excluded != null ? 0.0
                    : scoring.prefix() * prefixShare + scoring.load() * loadTerm + scoring.queue() * queueTerm
                            + scoring.health() * healthTerm + sticky;
            scored.add(new ScoredCandidate(node.nodeId(), tier, cluster, excluded, score, prefixShare, loadTerm,
                    queueTerm, healthTerm, sticky));
        }
        scored.sort(RANKING);
        return scored;
    }

    static double clusterHealth(String cluster, List<NodeCandidate> fleet) {
        return ClusterHealth.of(fleet.stream().filter(n -> n.cluster().equals(cluster))
                .map(n -> new ClusterHealth.Member(n.capacity(),
                        n.state().routable() && !n.breakerOpen() ? n.healthScore() : 0.0))
                .toList());
    }

    /** Capacity-weighted effective load of a tier's routable nodes; 1 when none is routable. */
    static double tierLoad(String tier, List<NodeCandidate> fleet) {
        double weighted = 0;
        long capacity = 0;
        for (NodeCandidate node : fleet) {
            if (node.tier().equals(tier) && node.state().routable()) {
                weighted += node.effectiveLoad() * node.capacity();
                capacity += node.capacity();
            }
        }
        return capacity == 0 ? 1.0 : weighted / capacity;
    }
}
