package dev.zerolayer.routing.decision.rules;

import dev.zerolayer.routing.decision.FallbackReason;
import dev.zerolayer.routing.decision.RoutingRule;
import dev.zerolayer.routing.decision.RuleFired;
import dev.zerolayer.routing.decision.TierChoice;
import java.util.List;

/**
 * SPEC rule 4: above the policy's high-complexity mark a request is likely vague, so an unpinned one goes one tier down
 * (none below the cheapest) and a pinned one stays, with a warning.
 */
public final class HighComplexityRule implements RoutingRule {

    @Override
    public TierChoice apply(TierChoice choice, Context context) {
        if (context.input().complexity() <= context.policy().thresholds().highComplexity()) {
            return choice;
        }
        if (context.input().pinnedTier() != null) {
            return choice.warn(FallbackReason.HIGH_COMPLEXITY_FALLBACK,
                    RuleFired.of(RuleFired.Kind.HIGH_COMPLEXITY_WARNING));
        }
        String lower = below(choice.tier(), context.tierOrder());
        return lower == null ? choice : choice.fallBackTo(lower, FallbackReason.HIGH_COMPLEXITY_FALLBACK,
                RuleFired.of(RuleFired.Kind.HIGH_COMPLEXITY_FALLBACK, lower));
    }

    static String below(String tier, List<String> tierOrder) {
        int index = tierOrder.indexOf(tier);
        return index > 0 ? tierOrder.get(index - 1) : null;
    }
}
