package dev.zerolayer.routing.thresholds;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The complexity thresholds of a policy's tier table: every row but the last (the catch-all) has one, keyed by the
 * row's tier.
 */
public final class TierThresholds {

    private TierThresholds() {
    }

    /** The adjustable rows' thresholds, in table order. */
    public static Map<String, Double> thresholds(PolicyDocument policy) {
        Map<String, Double> thresholds = new LinkedHashMap<>();
        List<TierRule> rows = policy.tierTable();
        for (int i = 0; i < rows.size() - 1; i++) {
            thresholds.putIfAbsent(rows.get(i).tier(), rows.get(i).maxComplexity());
        }
        return thresholds;
    }

    /** The policy with the given thresholds in its tier table (rows not named keep theirs). */
    public static PolicyDocument withThresholds(PolicyDocument policy, Map<String, Double> thresholds) {
        List<TierRule> rows = policy.tierTable();
        List<TierRule> table = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            TierRule row = rows.get(i);
            Double threshold = i < rows.size() - 1 ? thresholds.get(row.tier()) : null;
            table.add(threshold == null ? row : new TierRule(row.maxTokens(), threshold, row.tier()));
        }
        return new PolicyDocument(policy.tiers(), table, policy.chains(), policy.standbyClusters(),
                policy.thresholds(), policy.limits(), policy.resilience(), policy.apiKeyOverrides());
    }
}
