package dev.zerolayer.complexity.baseline;

import dev.zerolayer.complexity.scoring.InvalidInputException;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.routing.thresholds.TierThresholds;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Thresholds a caller proposes for a policy's tier table are in [0,1], only for adjustable rows, never decreasing. */
public final class TierTables {

    private TierTables() {
    }

    /**
     * Checks thresholds a caller proposes: only adjustable rows' tiers, numbers in [0,1], not decreasing down the table
     * (rows not named keep their current value).
     *
     * @throws InvalidInputException naming {@code <field>.<tier>}
     */
    public static Map<String, Double> checked(PolicyDocument policy, Map<String, Double> proposed, String field) {
        Map<String, Double> current = TierThresholds.thresholds(policy);
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
