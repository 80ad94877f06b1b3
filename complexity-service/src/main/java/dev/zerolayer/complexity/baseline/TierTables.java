package dev.zerolayer.complexity.baseline;

import dev.zerolayer.complexity.scoring.InvalidInputException;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The complexity thresholds of a policy's tier table: every row but the last (the catch-all) has one, keyed by the
 * row's tier; thresholds are in [0,1] and never decrease down the table.
 */
public final class TierTables {

    private TierTables() {
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

    /**
     * Checks thresholds a caller proposes: only adjustable rows' tiers, numbers in [0,1], not decreasing down the table
     * (rows not named keep their current value).
     *
     * @throws InvalidInputException naming {@code <field>.<tier>}
     */
    public static Map<String, Double> checked(PolicyDocument policy, Map<String, Double> proposed, String field) {
        Map<String, Double> current = thresholds(policy);
        for (Map.Entry<String, Double> entry : proposed.entrySet()) {
            if (!current.containsKey(entry.getKey())) {
                throw new InvalidInputException(field + "." + entry.getKey() + ": not a tier with a complexity "
                        + "threshold; adjustable: " + current.keySet());
            }
            Double value = entry.getValue();
            if (value == null || !Double.isFinite(value) || value < 0 || value > 1) {
                throw new InvalidInputException(field + "." + entry.getKey() + ": must be a number in [0,1]");
            }
        }
        Map<String, Double> merged = new LinkedHashMap<>(current);
        merged.putAll(proposed);
        String previousTier = null;
        double previous = 0;
        for (Map.Entry<String, Double> entry : merged.entrySet()) {
            if (previousTier != null && entry.getValue() < previous) {
                throw new InvalidInputException(String.format(Locale.ROOT, "%s.%s: %.4f is below %s.%s (%.4f); "
                        + "thresholds must not decrease down the tier table", field, entry.getKey(), entry.getValue(),
                        field, previousTier, previous));
            }
            previousTier = entry.getKey();
            previous = entry.getValue();
        }
        return merged;
    }
}
