package dev.zerolayer.routing.decision;

/** Why a request is served by other than the tier and cluster its rules chose first; {@link #wire()} as clients see it. */
public enum FallbackReason {
    CONTEXT_WINDOW_EXCEEDED("context_window_exceeded"),
    HIGH_COMPLEXITY_FALLBACK("high_complexity_fallback"),
    PEAK_LOAD_SHAPING("peak_load_shaping"),
    LOAD_SPIKE_REDIRECT("load_spike_redirect"),
    TARGET_CLUSTER_UNAVAILABLE("target_cluster_unavailable"),
    CAPACITY_DOWNGRADE("capacity_downgrade");

    private final String wire;

    FallbackReason(String wire) {
        this.wire = wire;
    }

    /** The name in headers, events and explain. */
    public String wire() {
        return wire;
    }
}
