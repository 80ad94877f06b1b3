package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.routing.decision.rules.TierTableRule;
import java.util.List;

/**
 * Shorthands over {@link DecisionEngine}'s tier rules for callers that only have a size and a complexity (baselines,
 * calibration): the table's tier alone (rule 2), and an unpinned request's tier after rule 4 ({@link
 * DecisionEngine#mapTier}).
 */
public final class TierSelection {

    private TierSelection() {
    }

    /** The policy's tiers, cheapest first. */
    public static List<String> tierOrder(PolicyDocument policy) {
        return policy.tiers().stream().map(TierSpec::name).toList();
    }

    /** Rule 2 alone: the first tier-table row whose token and complexity bounds hold, else the last tier. */
    public static String tableTier(PolicyDocument policy, int tokens, double complexity) {
        return TierTableRule.tableTier(policy.tierTable(), tokens, complexity, tierOrder(policy));
    }

    /** Rules 2 to 4 for an unpinned request: the table's tier, one lower when complexity is above the mark. */
    public static String unpinnedTier(PolicyDocument policy, int tokens, double complexity) {
        return DecisionEngine.mapTier(new DecisionInput(tokens, complexity, null, null, 0), policy).tier();
    }
}
