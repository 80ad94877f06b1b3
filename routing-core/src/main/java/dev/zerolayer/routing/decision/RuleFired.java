package dev.zerolayer.routing.decision;

import java.util.Locale;

/** One rule that fired during a decision, with what it acted on; {@link #wire()} is the text events and explain carry. */
public record RuleFired(Kind kind, String detail) {

    /** The rules and steps of SPEC section 3 that leave a trace, by their wire names. */
    public enum Kind {
        TIER_TABLE("tier_table"),
        PIN("pin"),
        HIGH_COMPLEXITY_FALLBACK("high_complexity_fallback"),
        HIGH_COMPLEXITY_WARNING("high_complexity_warning"),
        PEAK_LOAD_SHAPING("peak_load_shaping"),
        CAPACITY_DOWNGRADE("capacity_downgrade"),
        CONTEXT_WINDOW("context_window"),
        LOAD_SPIKE_REDIRECT("load_spike_redirect"),
        CLUSTER_UNHEALTHY("cluster_unhealthy"),
        CLUSTER_NO_ELIGIBLE_NODE("cluster_no_eligible_node"),
        LAST_RESORT("last_resort_unhealthy_cluster"),
        NO_NODE_AVAILABLE("no_node_available"),
        NODE_SCORE("node_score");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    public static RuleFired of(Kind kind, String detail) {
        return new RuleFired(kind, detail);
    }

    public static RuleFired of(Kind kind) {
        return new RuleFired(kind, null);
    }

    /** {@code kind} alone, or {@code kind:detail}, e.g. {@code tier_table:sonnet}. */
    public String wire() {
        return detail == null ? kind.wire() : kind.wire() + ":" + detail;
    }

    /** A cluster below the health mark: {@code cluster_unhealthy:<cluster>(<health>)}. */
    static RuleFired unhealthy(String cluster, double health) {
        return of(Kind.CLUSTER_UNHEALTHY, String.format(Locale.ROOT, "%s(%.2f)", cluster, health));
    }

    /** The rule a wire text names, for readers of events; null when it names none of these. */
    public static RuleFired parse(String wire) {
        for (Kind kind : Kind.values()) {
            if (wire.equals(kind.wire())) {
                return of(kind);
            }
            if (wire.startsWith(kind.wire() + ":")) {
                return of(kind, wire.substring(kind.wire().length() + 1));
            }
        }
        return null;
    }
}
