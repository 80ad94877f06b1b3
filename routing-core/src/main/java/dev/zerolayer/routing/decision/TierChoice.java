package dev.zerolayer.routing.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * The tier as the rules have it so far: the tier, the rules that fired, the fallback reasons (first: what the client
 * is told) and a warning (a pinned request the rules would have moved). Each rule returns a new one.
 */
public record TierChoice(String tier, List<RuleFired> fired, List<FallbackReason> fallbacks, FallbackReason warning) {

    public TierChoice {
        fired = List.copyOf(fired);
        fallbacks = List.copyOf(fallbacks);
    }

    static TierChoice start() {
        return new TierChoice(null, List.of(), List.of(), null);
    }

    /** This choice with the tier set and the rule that set it recorded. */
    public TierChoice moveTo(String newTier, RuleFired rule) {
        return new TierChoice(newTier, plus(fired, rule), fallbacks, warning);
    }

    /** This choice moved to another tier for a reason the client is told. */
    public TierChoice fallBackTo(String newTier, FallbackReason reason, RuleFired rule) {
        return new TierChoice(newTier, plus(fired, rule), plus(fallbacks, reason), warning);
    }

    /** This choice unchanged but for a warning. */
    public TierChoice warn(FallbackReason reason, RuleFired rule) {
        return new TierChoice(tier, plus(fired, rule), fallbacks, reason);
    }

    private static <T> List<T> plus(List<T> list, T item) {
        List<T> more = new ArrayList<>(list.size() + 1);
        more.addAll(list);
        more.add(item);
        return more;
    }
}
