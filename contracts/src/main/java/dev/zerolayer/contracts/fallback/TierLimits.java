package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;

/**
 * Limits of one tier: time to the first token per attempt, the deadline for a first token (bypasses included), the
 * time each requested output token adds to the whole answer's deadline ({@code deadlineMs + maxTokens ×
 * answerMsPerToken}), the tier's context window in tokens (a prompt longer than it never goes to the tier) and what
 * happens to a stream a node breaks mid-way ({@link Continuation}) and to a first token that is late ({@link Hedge}).
 * A record written before the last four existed decodes with their defaults.
 */
public record TierLimits(long ttfbLimitMs, long deadlineMs,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Long answerMsPerToken,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Integer contextTokens,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Continuation continuation,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Hedge hedge) {

    /** Per requested output token: 20 tokens a second, slower than any tier the simulator models. */
    public static final long DEFAULT_ANSWER_MS_PER_TOKEN = 50;
    /** The context window of a tier that names none. */
    public static final int DEFAULT_CONTEXT_TOKENS = 200_000;

    public TierLimits {
        answerMsPerToken = answerMsPerToken == null ? DEFAULT_ANSWER_MS_PER_TOKEN : answerMsPerToken;
        contextTokens = contextTokens == null ? DEFAULT_CONTEXT_TOKENS : contextTokens;
        continuation = continuation == null ? Continuation.defaults() : continuation;
        hedge = hedge == null ? Hedge.off() : hedge;
    }

    public TierLimits(long ttfbLimitMs, long deadlineMs, Long answerMsPerToken, Integer contextTokens,
            Continuation continuation) {
        this(ttfbLimitMs, deadlineMs, answerMsPerToken, contextTokens, continuation, null);
    }

    public TierLimits(long ttfbLimitMs, long deadlineMs, Long answerMsPerToken, Integer contextTokens) {
        this(ttfbLimitMs, deadlineMs, answerMsPerToken, contextTokens, null, null);
    }

    public TierLimits(long ttfbLimitMs, long deadlineMs) {
        this(ttfbLimitMs, deadlineMs, null, null, null, null);
    }

    /** The whole answer's deadline (from the request's arrival) for a request asking for up to {@code maxTokens}. */
    public long answerDeadlineMs(int maxTokens) {
        return deadlineMs + Math.max(0, maxTokens) * answerMsPerToken;
    }

    /** The longest silence between a node's chunks once it answers: the continuation's chunk gap, else the TTFB limit. */
    public long chunkGapMs() {
        return continuation.chunkGapMs() != null ? continuation.chunkGapMs() : ttfbLimitMs;
    }
}
