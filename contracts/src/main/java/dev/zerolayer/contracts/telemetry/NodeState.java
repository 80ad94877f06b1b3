package dev.zerolayer.contracts.telemetry;

/** A node's health state (SPEC section 4); only HEALTHY and DEGRADED nodes take traffic. */
public enum NodeState {
    HEALTHY,
    DEGRADED,
    WARMING,
    UNAVAILABLE,
    DOWN;

    public boolean routable() {
        return this == HEALTHY || this == DEGRADED;
    }
}
