package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.routing.decision.rules.CapacityDowngradeRule;
import dev.zerolayer.routing.decision.rules.HighComplexityRule;
import dev.zerolayer.routing.decision.rules.PeakShapingRule;
import dev.zerolayer.routing.decision.rules.PinRule;
import dev.zerolayer.routing.decision.rules.TierTableRule;
import java.util.ArrayList;
import java.util.List;

/**
 * SPEC section 3's tier rules in the order they apply: table, pin, high complexity, peak shaping, then capacity
 * downgrade (off unless the policy turns it on).
 */
public final class RoutingRules {

    private final List<RoutingRule> rules;

    public RoutingRules(List<RoutingRule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static RoutingRules standard() {
        return new RoutingRules(List.of(new TierTableRule(), new PinRule(), new HighComplexityRule(),
                new PeakShapingRule(), new CapacityDowngradeRule()));
    }

    /** These rules with one more after them. */
    public RoutingRules then(RoutingRule rule) {
        List<RoutingRule> more = new ArrayList<>(rules);
        more.add(rule);
        return new RoutingRules(more);
    }

    /** Every rule, in order, over the fleet. */
    public TierChoice apply(DecisionInput input, PolicyDocument policy, List<NodeCandidate> fleet) {
        return run(input, policy, fleet, true);
    }

    /** The rules that do not read the fleet, in order: the tier a request maps to before load is considered. */
    public TierChoice map(DecisionInput input, PolicyDocument policy) {
        return run(input, policy, List.of(), false);
    }

    private TierChoice run(DecisionInput input, PolicyDocument policy, List<NodeCandidate> fleet, boolean withFleet) {
        RoutingRule.Context context = new RoutingRule.Context(input, policy, tierOrder(policy), fleet);
        TierChoice choice = TierChoice.start();
        for (RoutingRule rule : rules) {
            if (withFleet || !rule.readsFleet()) {
                choice = rule.apply(choice, context);
            }
        }
        return choice;
    }

    static List<String> tierOrder(PolicyDocument policy) {
        List<String> order = new ArrayList<>(policy.tiers().size());
        for (TierSpec spec : policy.tiers()) {
            order.add(spec.name());
        }
        return order;
    }
}
