package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;

/**
 * A tier's mid-stream continuation: whether a stream its node breaks after the client got tokens goes on on the next
 * node (the text sent so far as a prefilled assistant turn), how many times per request at most, the longest silence
 * between a node's chunks before it counts as stalled (null: the tier's TTFB limit) and whether the continuation may
 * go to the chain's next tier when no node of the tier is left. A record written before a field existed decodes with
 * its default.
 */
public record Continuation(
        @JacksonInject(value = "continuation.enabled", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Boolean enabled,
        @JacksonInject(value = "continuation.maxPerRequest", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Integer maxPerRequest,
        @JacksonInject(value = "continuation.chunkGapMs", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Long chunkGapMs,
        @JacksonInject(value = "continuation.nextTier", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Boolean nextTier) {

    /** Continuations per request when the policy names no number. */
    public static final int DEFAULT_MAX_PER_REQUEST = 2;

    public Continuation {
        enabled = enabled == null || enabled;
        maxPerRequest = maxPerRequest == null ? DEFAULT_MAX_PER_REQUEST : maxPerRequest;
        nextTier = nextTier != null && nextTier;
    }

    /** On, two continuations per request, the TTFB limit as the chunk gap, same tier only. */
    public static Continuation defaults() {
        return new Continuation(true, DEFAULT_MAX_PER_REQUEST, null, false);
    }

    /** Off: a stream broken mid-way ends with the API's error event. */
    public static Continuation off() {
        return new Continuation(false, 0, null, false);
    }

    /** Whether a broken stream may be continued at all. */
    public boolean on() {
        return enabled && maxPerRequest > 0;
    }
}
