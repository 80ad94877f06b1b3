package dev.zerolayer.routing.decision.rules;

import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.routing.decision.FallbackReason;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RoutingRule;
import dev.zerolayer.routing.decision.RuleFired;
import dev.zerolayer.routing.decision.TierChoice;
import java.util.List;

/**
 * SPEC rule 5: while the policy's shaped tier (second tier by default) is above its load mark, its unpinned requests
 * of mid complexity (the peak band) go one tier down.
 */
public final class PeakShapingRule implements RoutingRule {

    @Override
    public TierChoice apply(TierChoice choice, Context context) {
        Thresholds thresholds = context.policy().thresholds();
        double complexity = context.input().complexity();
        String shaped = context.policy().shapedTier();
        if (context.input().pinnedTier() != null || shaped == null || !shaped.equals(choice.tier())
                || complexity < thresholds.peakBandLow() || complexity > thresholds.peakBandHigh()) {
            return choice;
        }
        String lower = HighComplexityRule.below(shaped, context.tierOrder());
        if (lower == null || tierLoad(shaped, context.fleet()) <= thresholds.peakLoadMark()) {
            return choice;
        }
        return choice.fallBackTo(lower, FallbackReason.PEAK_LOAD_SHAPING,
                RuleFired.of(RuleFired.Kind.PEAK_LOAD_SHAPING, lower));
    }

    @Override
    public boolean readsFleet() {
        return true;
    }

    /** Capacity-weighted effective load of a tier's routable nodes; 1 when none is routable. */
    public static double tierLoad(String tier, List<NodeCandidate> fleet) {
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
