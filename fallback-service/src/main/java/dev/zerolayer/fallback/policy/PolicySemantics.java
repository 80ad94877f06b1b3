package dev.zerolayer.fallback.policy;

import static dev.zerolayer.fallback.policy.PolicyViolation.path;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Resilience;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.routing.decision.DecisionPlugins;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a schema cannot say: names unique; every referenced tier and cluster exists; each chain ends without revisiting a
 * tier; each tier has a reachable cluster; thresholds, tier-table rows and limits are ordered; overrides name known
 * tiers and stay ordered once merged; node scoring names plugins the router has, with usable weights and parameters
 * and TTFT SLOs of known tiers;
 * the peak-shaping tier exists and has a tier below it.
 */
public final class PolicySemantics {

    private static final DecisionPlugins PLUGINS = DecisionPlugins.builtIn();

    public List<PolicyViolation> validate(PolicyDocument policy) {
        List<PolicyViolation> out = new ArrayList<>();
        Set<String> tiers = tiers(policy, out);
        Set<String> clusters = clusters(policy, out);
        tierTable(policy.tierTable(), tiers, path("tierTable"), out);
        chains(policy.chains(), tiers, path("chains"), out);
        standbys(policy, clusters, out);
        thresholds(policy.thresholds(), path("thresholds"), out);
        limits(policy.limits(), tiers, path("limits"), true, out);
        resilience(policy.resilience(), out);
        overrides(policy, tiers, out);
        scoring(policy.scoring(), tiers, path("scoring"), out);
        if (policy.peakShapingTier() != null) {
            int index = policy.tiers().stream().map(TierSpec::name).toList().indexOf(policy.peakShapingTier());
            if (index < 0) {
                out.add(new PolicyViolation(path("peakShapingTier"), unknownTier(policy.peakShapingTier(), tiers)));
            } else if (index == 0) {
                out.add(new PolicyViolation(path("peakShapingTier"), "the cheapest tier has no tier below to shape to"));
            }
        }
        return out;
    }

    /** Plugin names the router knows (routing-core's), weights and parameters in range, TTFT SLOs of known tiers. */
    private static void scoring(Scoring scoring, Set<String> tiers, String at, List<PolicyViolation> out) {
        for (String problem : PLUGINS.problems(scoring)) {
            out.add(new PolicyViolation(at, problem));
        }
        for (String tier : new TreeSet<>(scoring.ttftSloMs().keySet())) {
            if (!tiers.contains(tier)) {
                out.add(new PolicyViolation(at + "/ttftSloMs/" + tier, unknownTier(tier, tiers)));
            }
        }
    }

    private static Set<String> tiers(PolicyDocument policy, List<PolicyViolation> out) {
        Set<String> names = new LinkedHashSet<>();
        Map<String, String> aliasOwner = new HashMap<>();
        for (int i = 0; i < policy.tiers().size(); i++) {
            TierSpec tier = policy.tiers().get(i);
            if (!names.add(tier.name())) {
                out.add(new PolicyViolation(path("tiers", i, "name"), "tier '" + tier.name() + "' is declared twice"));
            }
            for (int a = 0; a < tier.modelAliases().size(); a++) {
                String alias = tier.modelAliases().get(a);
                String owner = aliasOwner.putIfAbsent(alias, tier.name());
                if (owner != null) {
                    out.add(new PolicyViolation(path("tiers", i, "modelAliases", a), "model alias '" + alias
                            + "' already belongs to tier '" + owner + "'"));
                }
            }
        }
        return names;
    }

    /** Every cluster named by a tier, each claimed by one tier only; a tier without one has no reachable cluster. */
    private static Set<String> clusters(PolicyDocument policy, List<PolicyViolation> out) {
        Map<String, String> owner = new HashMap<>();
        for (int i = 0; i < policy.tiers().size(); i++) {
            TierSpec tier = policy.tiers().get(i);
            if (tier.clusters().isEmpty()) {
                out.add(new PolicyViolation(path("tiers", i, "clusters"), "tier '" + tier.name()
                        + "' has no reachable cluster: name at least one"));
            }
            Set<String> own = new HashSet<>();
            for (int c = 0; c < tier.clusters().size(); c++) {
                String cluster = tier.clusters().get(c);
                String previous = owner.putIfAbsent(cluster, tier.name());
                if (!own.add(cluster)) {
                    out.add(new PolicyViolation(path("tiers", i, "clusters", c), "cluster '" + cluster
                            + "' is listed twice"));
                } else if (previous != null) {
                    out.add(new PolicyViolation(path("tiers", i, "clusters", c), "cluster '" + cluster
                            + "' already belongs to tier '" + previous + "'"));
                }
            }
        }
        return owner.keySet();
    }

    private static void tierTable(List<TierRule> table, Set<String> tiers, String at, List<PolicyViolation> out) {
        for (int i = 0; i < table.size(); i++) {
            TierRule rule = table.get(i);
            if (!tiers.contains(rule.tier())) {
                out.add(new PolicyViolation(at + path(i, "tier"), unknownTier(rule.tier(), tiers)));
            }
            if (i == 0) {
                continue;
            }
            TierRule before = table.get(i - 1);
            if (rule.maxTokens() < before.maxTokens()) {
                out.add(new PolicyViolation(at + path(i, "maxTokens"), "rows must be ordered: "
                        + rule.maxTokens() + " is below the previous row's " + before.maxTokens()));
            } else if (rule.maxComplexity() < before.maxComplexity()) {
                out.add(new PolicyViolation(at + path(i, "maxComplexity"), "rows must be ordered: "
                        + rule.maxComplexity() + " is below the previous row's " + before.maxComplexity()));
            } else if (rule.maxTokens() == before.maxTokens() && rule.maxComplexity() == before.maxComplexity()) {
                out.add(new PolicyViolation(at + path(i), "the row can never match: row " + (i - 1)
                        + " has the same bounds"));
            }
        }
    }

    /** A chain lists the tiers tried after its own, in order; walking it must end without visiting a tier twice. */
    private static void chains(Map<String, List<String>> chains, Set<String> tiers, String at,
            List<PolicyViolation> out) {
        new TreeMap<>(chains).forEach((tier, chain) -> {
            if (!tiers.contains(tier)) {
                out.add(new PolicyViolation(at + path(tier), unknownTier(tier, tiers)));
            }
            Set<String> visited = new LinkedHashSet<>();
            visited.add(tier);
            for (int i = 0; i < chain.size(); i++) {
                String next = chain.get(i);
                if (!tiers.contains(next)) {
                    out.add(new PolicyViolation(at + path(tier, i), unknownTier(next, tiers)));
                }
                if (!visited.add(next)) {
                    out.add(new PolicyViolation(at + path(tier, i), "cycle: the chain of '" + tier
                            + "' comes back to '" + next + "' (" + String.join(" -> ", visited) + " -> " + next
                            + "); a chain must end"));
                }
            }
        });
    }

    private static void standbys(PolicyDocument policy, Set<String> clusters, List<PolicyViolation> out) {
        new TreeMap<>(policy.standbyClusters()).forEach((primary, standby) -> {
            if (!clusters.contains(primary)) {
                out.add(new PolicyViolation(path("standbyClusters", primary), "cluster '" + primary
                        + "' is not a cluster of any tier (clusters: " + String.join(", ", new TreeSet<>(clusters)) + ")"));
            }
            if (primary.equals(standby)) {
                out.add(new PolicyViolation(path("standbyClusters", primary), "a cluster cannot be its own standby"));
            }
        });
    }

    private static void thresholds(Thresholds t, String at, List<PolicyViolation> out) {
        if (t == null) {
            return;
        }
        if (t.peakBandLow() > t.peakBandHigh()) {
            out.add(new PolicyViolation(at + "/peakBandLow", "must not be above peakBandHigh (" + t.peakBandLow()
                    + " > " + t.peakBandHigh() + ")"));
        }
        if (t.smRecoverBelow() >= t.smUnavailableAbove()) {
            out.add(new PolicyViolation(at + "/smRecoverBelow", "must be below smUnavailableAbove ("
                    + t.smRecoverBelow() + " >= " + t.smUnavailableAbove() + ")"));
        }
        if (t.warmupProbeLeadMs() >= t.warmupDefaultMs() && t.warmupDefaultMs() > 0) {
            out.add(new PolicyViolation(at + "/warmupProbeLeadMs", "must be below warmupDefaultMs ("
                    + t.warmupProbeLeadMs() + " >= " + t.warmupDefaultMs() + ")"));
        }
        if (t.sampleStaleMs() > t.viewStaleMs()) {
            out.add(new PolicyViolation(at + "/sampleStaleMs", "must not be above viewStaleMs (" + t.sampleStaleMs()
                    + " > " + t.viewStaleMs() + ")"));
        }
    }

    private static void limits(Map<String, TierLimits> limits, Set<String> tiers, String at, boolean everyTier,
            List<PolicyViolation> out) {
        new TreeMap<>(limits).forEach((tier, limit) -> {
            if (!tiers.contains(tier)) {
                out.add(new PolicyViolation(at + path(tier), unknownTier(tier, tiers)));
            } else if (limit.ttfbLimitMs() > limit.deadlineMs()) {
                out.add(new PolicyViolation(at + path(tier, "ttfbLimitMs"), "must not be above deadlineMs ("
                        + limit.ttfbLimitMs() + " > " + limit.deadlineMs() + ")"));
            }
        });
        if (everyTier) {
            tiers.stream().filter(tier -> !limits.containsKey(tier)).forEach(tier -> out.add(new PolicyViolation(
                    at + path(tier), "tier '" + tier + "' has no limits (ttfbLimitMs, deadlineMs)")));
        }
    }

    private static void resilience(Resilience r, List<PolicyViolation> out) {
        if (r.breakerMinimumCalls() > r.breakerWindowSize()) {
            out.add(new PolicyViolation(path("resilience", "breakerMinimumCalls"), "must not be above "
                    + "breakerWindowSize (" + r.breakerMinimumCalls() + " > " + r.breakerWindowSize() + ")"));
        }
    }

    private static void overrides(PolicyDocument policy, Set<String> tiers, List<PolicyViolation> out) {
        new TreeMap<>(policy.apiKeyOverrides()).forEach((key, override) -> {
            thresholds(override.thresholds(), path("apiKeyOverrides", key, "thresholds"), out);
            limits(override.limits(), tiers, path("apiKeyOverrides", key, "limits"), false, out);
            if (override.tierTable() != null) {
                tierTable(override.tierTable(), tiers, path("apiKeyOverrides", key, "tierTable"), out);
            }
            if (override.chains() != null) {
                chains(override.chains(), tiers, path("apiKeyOverrides", key, "chains"), out);
            }
            if (override.scoring() != null) {
                scoring(override.scoring(), tiers, path("apiKeyOverrides", key, "scoring"), out);
            }
        });
    }

    private static String unknownTier(String tier, Set<String> tiers) {
        return "unknown tier '" + tier + "' (tiers: " + String.join(", ", tiers) + ")";
    }
}
