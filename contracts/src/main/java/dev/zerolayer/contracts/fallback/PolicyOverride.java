package dev.zerolayer.contracts.fallback;

import java.util.Map;

/** What one API key changes of the policy; a null field keeps the policy's value. */
public record PolicyOverride(Thresholds thresholds, Map<String, TierLimits> limits, Integer requestsPerSecond) {

    public PolicyOverride {
        limits = limits == null ? Map.of() : Map.copyOf(limits);
    }
}
