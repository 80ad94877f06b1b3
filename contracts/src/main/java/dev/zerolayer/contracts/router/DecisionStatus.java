package dev.zerolayer.contracts.router;

/** How a routed request ended. */
public enum DecisionStatus {
    /** Served in full. */
    OK,
    /** Rejected before routing (bad input, auth, rate limit). */
    REJECTED,
    /** No node could serve it (529). */
    OVERLOADED,
    /** The deadline passed (504). */
    TIMEOUT,
    /** An upstream failed after the first byte of a stream. */
    STREAM_FAILED,
    /** Only a route explanation was requested; nothing was dispatched. */
    EXPLAINED
}
