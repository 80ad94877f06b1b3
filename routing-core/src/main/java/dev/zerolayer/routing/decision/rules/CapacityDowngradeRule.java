package dev.zerolayer.routing.decision.rules;

import dev.zerolayer.contracts.fallback.CapacityDowngrade;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.FallbackReason;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RoutingRule;
import dev.zerolayer.routing.decision.RuleFired;
import dev.zerolayer.routing.decision.TierChoice;
import dev.zerolayer.routing.decision.plugins.TtftSloFilter;

/**
 * Capacity downgrade: when every serving node of the decided tier is predicted to miss the tier's TTFT SLO (by the
 * margin) and a node of the tier below is predicted to meet it, a request within the policy's complexity band goes one
 * tier down ({@code capacity_downgrade}); pinned requests only where the policy allows. Off unless the policy enables it.
 */
public final class CapacityDowngradeRule implements RoutingRule {

    @Override
    public TierChoice apply(TierChoice choice, Context context) {
        Scoring scoring = context.policy().scoring();
        CapacityDowngrade downgrade = scoring.capacityDowngrade();
        String tier = choice.tier();
        if (!downgrade.enabled() || tier == null || !downgrade.allows(context.input().complexity())
                || (context.input().pinnedTier() != null && !downgrade.allowPinned())) {
            return choice;
        }
        double slo = scoring.ttftSlo(tier);
        String lower = HighComplexityRule.below(tier, context.tierOrder());
        if (Double.isNaN(slo) || lower == null) {
            return choice;
        }
        int serving = 0;
        for (NodeCandidate node : context.fleet()) {
            if (node.tier().equals(tier) && serves(node)) {
                serving++;
                double predicted = node.predictedTtftMs(context.input());
                if (Double.isNaN(predicted) || !TtftSloFilter.misses(predicted, slo, scoring)) {
                    return choice;
                }
            }
        }
        if (serving == 0) {
            return choice;
        }
        for (NodeCandidate node : context.fleet()) {
            if (node.tier().equals(lower) && serves(node)) {
                double predicted = node.predictedTtftMs(context.input());
                if (predicted <= slo) {
                    return choice.fallBackTo(lower, FallbackReason.CAPACITY_DOWNGRADE,
                            RuleFired.of(RuleFired.Kind.CAPACITY_DOWNGRADE, tier + "->" + lower));
                }
            }
        }
        return choice;
    }

    @Override
    public boolean readsFleet() {
        return true;
    }

    private static boolean serves(NodeCandidate node) {
        return node.state().routable() && !node.breakerOpen();
    }
}
