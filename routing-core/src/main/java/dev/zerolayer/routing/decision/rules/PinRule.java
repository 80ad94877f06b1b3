package dev.zerolayer.routing.decision.rules;

import dev.zerolayer.routing.decision.RoutingRule;
import dev.zerolayer.routing.decision.RuleFired;
import dev.zerolayer.routing.decision.TierChoice;

/** SPEC rule 3: a pinned tier ({@code anthropic-routing-priority}) replaces the table's. */
public final class PinRule implements RoutingRule {

    @Override
    public TierChoice apply(TierChoice choice, Context context) {
        String pinned = context.input().pinnedTier();
        return pinned == null ? choice : choice.moveTo(pinned, RuleFired.of(RuleFired.Kind.PIN, pinned));
    }
}
