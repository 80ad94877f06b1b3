package dev.zerolayer.fallback.dryrun;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.RuleFired;
import java.util.Optional;

/**
 * What of a routed decision the tier mapping depends on: token count, complexity and the pinned tier (from the
 * decision's {@code pin:} rule). Decisions without a {@code tier_table:<tier>} trace (rejected before routing) give none.
 */
public record ReplayInput(int tokenCount, double complexity, String pinnedTier) {

    public static Optional<ReplayInput> of(RoutingDecision decision) {
        boolean mapped = false;
        String pin = null;
        for (String wire : decision.rulesFired()) {
            RuleFired rule = RuleFired.parse(wire);
            if (rule != null && rule.kind() == RuleFired.Kind.TIER_TABLE && rule.detail() != null) {
                mapped = true;
            } else if (rule != null && rule.kind() == RuleFired.Kind.PIN && pin == null) {
                pin = rule.detail();
            }
        }
        if (!mapped || decision.tokenCount() < 0 || !Double.isFinite(decision.complexityScore())
                || decision.complexityScore() < 0 || decision.complexityScore() > 1) {
            return Optional.empty();
        }
        return Optional.of(new ReplayInput(decision.tokenCount(), decision.complexityScore(), pin));
    }

    public DecisionInput toDecisionInput() {
        return new DecisionInput(tokenCount, complexity, pinnedTier, null, 0);
    }
}
