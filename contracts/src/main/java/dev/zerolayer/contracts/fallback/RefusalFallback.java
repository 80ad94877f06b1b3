package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the router does with a non-streaming answer that is a refusal or reported as low confidence: nothing
 * ({@code off}, the default), retry it once on the next tier of the chain, or return it with {@code prefix} prepended.
 */
public record RefusalFallback(Mode mode, String prefix) {

    /** The default prefix of an annotated refusal. */
    public static final String DEFAULT_PREFIX = "[ZeroLayer: this tier declined or reported low confidence] ";

    /** How a refusal is handled; written on the wire in lower case. */
    public enum Mode {
        @JsonProperty("off")
        OFF,
        @JsonProperty("retry_next_tier")
        RETRY_NEXT_TIER,
        @JsonProperty("annotate")
        ANNOTATE
    }

    public RefusalFallback {
        mode = mode == null ? Mode.OFF : mode;
        prefix = prefix == null ? DEFAULT_PREFIX : prefix;
    }

    public static RefusalFallback defaults() {
        return new RefusalFallback(Mode.OFF, DEFAULT_PREFIX);
    }
}
