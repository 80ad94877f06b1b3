package dev.zerolayer.routing.ttft;

/**
 * One node's time-to-first-token model, linear in what the router sees at decision time: predicted TTFT (ms) = base +
 * per request ahead + per 1,000 uncached prompt tokens of this request + per 1,000 tokens the node must still prefill
 * for requests ahead + per request over its run slots + per unit of busy share. Immutable: a snapshot of a
 * {@link TtftPredictor}'s regression, or a prior from a hardware profile.
 *
 * @param baseMs                fixed part (scheduling, first decode step)
 * @param msPerQueued           each request ahead of this one still waiting for its first token
 * @param msPerKiloToken        prefill of 1,000 tokens of this request the node does not hold
 * @param msPerPendingKiloToken prefill of 1,000 tokens the node must still do for requests ahead (Dynamo's backlog)
 * @param msPerSlotWait         each request beyond the node's run slots (waiting for a running request to finish)
 * @param msPerLoad             extra time at full busy share (the router's in-flight / capacity = 1)
 */
public record TtftModel(double baseMs, double msPerQueued, double msPerKiloToken, double msPerPendingKiloToken,
        double msPerSlotWait, double msPerLoad) {

    /** Number of coefficients (and features, the first being the constant 1). */
    static final int SIZE = 6;

    /**
     * A prior from a hardware profile: fixed overhead per request (this one's and each ahead's), prefill rate (this
     * request's and the backlog's tokens), run slots and the mean time a request holds a slot (its decode): a request
     * beyond the slots waits about holdMs / capacity.
     */
    public static TtftModel prior(double firstTokenOverheadMs, double prefillTokensPerSecond, int capacity,
            double meanHoldMs) {
        double msPerKilo = 1_000_000.0 / prefillTokensPerSecond;
        return new TtftModel(firstTokenOverheadMs, firstTokenOverheadMs, msPerKilo, msPerKilo,
                meanHoldMs / Math.max(1, capacity), 0.0);
    }

    /** A prior for a node whose hardware is unknown: 50 ms, 8k prefill tokens/s, 16 slots, 8 s per request. */
    public static TtftModel generic() {
        return prior(50, 8_000, 16, 8_000);
    }

    /**
     * Predicted TTFT in ms (never below 0).
     *
     * @param queued         requests ahead still waiting for their first token
     * @param uncachedTokens this request's prompt tokens the node does not hold
     * @param pendingTokens  tokens the node must still prefill for the requests ahead (0 when unknown)
     * @param slotWait       requests beyond the node's run slots, this one included (0 when a slot is free)
     * @param loadShare      the router's in-flight share of the node's capacity, in [0,1]
     */
    public double predictMs(double queued, int uncachedTokens, long pendingTokens, double slotWait,
            double loadShare) {
        double ms = baseMs + msPerQueued * queued + msPerKiloToken * uncachedTokens / 1000.0
                + msPerPendingKiloToken * pendingTokens / 1000.0 + msPerSlotWait * slotWait + msPerLoad * loadShare;
        return Math.max(0.0, ms);
    }

    double[] vector() {
        return new double[] {baseMs, msPerQueued, msPerKiloToken, msPerPendingKiloToken, msPerSlotWait, msPerLoad};
    }

    static TtftModel of(double[] theta) {
        // coefficients are times: none below 0, so a noisy start cannot make load look free
        return new TtftModel(Math.max(0, theta[0]), Math.max(0, theta[1]), Math.max(0, theta[2]),
                Math.max(0, theta[3]), Math.max(0, theta[4]), Math.max(0, theta[5]));
    }
}
