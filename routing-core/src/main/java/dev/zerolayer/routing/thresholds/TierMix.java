package dev.zerolayer.routing.thresholds;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.routing.decision.TierSelection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The share of prompts each tier gets from size and complexity alone (routing-core's {@link TierSelection}). */
public final class TierMix {

    private TierMix() {
    }

    /** Every tier of the policy (cheapest first) with its share; shares sum to 1 for a non-empty set. */
    public static Map<String, Double> of(PolicyDocument policy, int[] tokens, double[] scores) {
        List<String> order = TierSelection.tierOrder(policy);
        long[] counts = new long[order.size()];
        for (int i = 0; i < scores.length; i++) {
            int index = order.indexOf(TierSelection.unpinnedTier(policy, tokens[i], scores[i]));
            if (index >= 0) {
                counts[index]++;
            }
        }
        Map<String, Double> mix = new LinkedHashMap<>();
        for (int t = 0; t < order.size(); t++) {
            mix.put(order.get(t), scores.length == 0 ? 0.0 : (double) counts[t] / scores.length);
        }
        return mix;
    }

    /** The tier of each prompt. */
    public static String[] tiers(PolicyDocument policy, int[] tokens, double[] scores) {
        String[] tiers = new String[scores.length];
        for (int i = 0; i < scores.length; i++) {
            tiers[i] = TierSelection.unpinnedTier(policy, tokens[i], scores[i]);
        }
        return tiers;
    }
}
