package dev.zerolayer.routing.decision.rules;

import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.routing.decision.RoutingRule;
import dev.zerolayer.routing.decision.RuleFired;
import dev.zerolayer.routing.decision.TierChoice;
import java.util.List;

/** SPEC rule 2: the first tier-table row whose token and complexity bounds hold; the most capable tier when none does. */
public final class TierTableRule implements RoutingRule {

    @Override
    public TierChoice apply(TierChoice choice, Context context) {
        String tier = tableTier(context.policy().tierTable(), context.input().tokenCount(),
                context.input().complexity(), context.tierOrder());
        return choice.moveTo(tier, RuleFired.of(RuleFired.Kind.TIER_TABLE, tier));
    }

    public static String tableTier(List<TierRule> table, int tokens, double complexity, List<String> tierOrder) {
        for (TierRule rule : table) {
            if (tokens <= rule.maxTokens() && complexity <= rule.maxComplexity()) {
                return rule.tier();
            }
        }
        return tierOrder.get(tierOrder.size() - 1);
    }
}
