package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.List;

/**
 * One of SPEC section 3's tier rules: takes the tier as the rules before it left it and returns it, moved or not, with
 * a typed trace of why. {@link RoutingRules} holds them in order.
 */
public interface RoutingRule {

    TierChoice apply(TierChoice choice, Context context);

    /** Whether the rule reads the fleet (rules that do not can map a tier without one: baselines, dry runs). */
    default boolean readsFleet() {
        return false;
    }

    /** What a rule may read: the request, the policy, its tiers cheapest first, and the fleet (empty when none). */
    record Context(DecisionInput input, PolicyDocument policy, List<String> tierOrder, List<NodeCandidate> fleet) {
    }
}
