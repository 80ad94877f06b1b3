package dev.zerolayer.routing.decision;

import java.util.List;

/**
 * The tier a request maps to before the fleet is looked at (SPEC section 3, rules 2 to 4: tier table, pin, high
 * complexity), with the rules that fired and the fallback reason or warning they gave.
 */
public record TierMapping(String tier, List<String> rulesFired, String fallbackReason, String warning) {

    public TierMapping {
        rulesFired = List.copyOf(rulesFired);
    }
}
