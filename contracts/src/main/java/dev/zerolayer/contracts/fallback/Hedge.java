package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;

/**
 * A tier's hedged first token: when a node has sent nothing within the hedge delay (null: the node's recent p95 time
 * to first token for prompts of that size, as the router observed it), the same request goes to the next node too and
 * whichever answers first serves, the other cancelled at once; hedges are at most {@code budgetPercent} of the tier's
 * requests. Off unless the policy turns it on. A record written before a field existed decodes with its default.
 */
public record Hedge(
        @JacksonInject(value = "hedge.enabled", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Boolean enabled,
        @JacksonInject(value = "hedge.delayMs", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Long delayMs,
        @JacksonInject(value = "hedge.budgetPercent", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Double budgetPercent) {

    /** Share of a tier's requests that may be hedged when the policy names none. */
    public static final double DEFAULT_BUDGET_PERCENT = 5.0;

    public Hedge {
        enabled = enabled != null && enabled;
        budgetPercent = budgetPercent == null ? DEFAULT_BUDGET_PERCENT : budgetPercent;
    }

    /** Off. */
    public static Hedge off() {
        return new Hedge(false, null, null);
    }

    /** On, with the learned delay and the default budget. */
    public static Hedge learned() {
        return new Hedge(true, null, null);
    }
}
