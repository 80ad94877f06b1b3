package dev.zerolayer.routing.ttft;

/**
 * One node's time-to-first-token model, linear in what the router sees at decision time: predicted TTFT (ms) = base +
 * msPerQueued x requests ahead in its queue + msPerKiloToken x uncached prompt tokens / 1000 + msPerLoad x busy share.
 * Immutable: a snapshot of a {@link TtftPredictor}'s regression, or a prior from a hardware profile.
 *
 * @param baseMs          fixed part (scheduling, first decode step)
 * @param msPerQueued     waiting time each request ahead in the node's queue adds
 * @param msPerKiloToken  prefill time of 1,000 tokens the node does not hold
 * @param msPerLoad       extra time at full busy share (in-flight / capacity = 1): prefills queued behind others
 */
public record TtftModel(double baseMs, double msPerQueued, double msPerKiloToken, double msPerLoad) {

    /**
     * A prior from a hardware profile: fixed overhead, prefill rate, run slots and the mean time one request holds a
     * slot (its decode): a request ahead waits about holdMs / capacity.
     */
    public static TtftModel prior(double firstTokenOverheadMs, double prefillTokensPerSecond, int capacity,
            double meanHoldMs) {
        return new TtftModel(firstTokenOverheadMs, meanHoldMs / Math.max(1, capacity),
                1_000_000.0 / prefillTokensPerSecond, 0.0);
    }

    /** A prior for a node whose hardware is unknown: 50 ms, 8k prefill tokens/s, 16 slots, 8 s per request. */
    public static TtftModel generic() {
        return prior(50, 8_000, 16, 8_000);
    }

    /** Predicted TTFT in ms (never below 0). */
    public double predictMs(double queued, int uncachedTokens, double loadShare) {
        double ms = baseMs + msPerQueued * queued + msPerKiloToken * uncachedTokens / 1000.0 + msPerLoad * loadShare;
        return Math.max(0.0, ms);
    }

    double[] vector() {
        return new double[] {baseMs, msPerQueued, msPerKiloToken, msPerLoad};
    }
}
