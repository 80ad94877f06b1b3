package dev.zerolayer.bench.replay;

/**
 * What became of one request (or of its client retry) under one policy: start time ({@code arrival}; the retry's
 * start for a retry), status, the tier decided and the tier that served the first token (null when none did), time
 * to first token in seconds from {@code arrival} (NaN without one), prompt tokens served from cache by the serving
 * node, attempts made, failure reason and the time it settled.
 */
public record Outcome(int id, double arrival, Status status, String decidedTier, String servedTier, String servedNode,
        double ttft, int contextTokens, int cachedTokens, int generatedTokens, int attempts, String failure,
        double end) {

    /** OK: completed; TIMEOUT: no first byte within the limit or deadline; ERROR: refused or reset before the first
     * byte; CUT: failed after the first byte; NO_NODE: the policy had no node to send it to. */
    public enum Status { OK, TIMEOUT, ERROR, CUT, NO_NODE }

    public boolean failed() {
        return status != Status.OK;
    }

    public boolean gotFirstToken() {
        return !Double.isNaN(ttft);
    }

    /** A client retries a request that failed before its first token (after one, a stream cannot be resumed). */
    public boolean retryable() {
        return failed() && !gotFirstToken();
    }
}
