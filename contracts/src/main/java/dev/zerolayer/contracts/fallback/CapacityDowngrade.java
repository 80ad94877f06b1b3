package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;

/**
 * When a tier's capacity saturates, route one tier down: while every node of the decided tier is predicted to miss the
 * tier's TTFT SLO ({@link Scoring#ttftSloMs}) and a node of the tier below is predicted to meet it, a request whose
 * complexity is within [{@code complexityLow}, {@code complexityHigh}] goes down with reason {@code capacity_downgrade};
 * a pinned one only when {@code allowPinned}. Off unless {@code enabled}; a missing field takes its default.
 */
public record CapacityDowngrade(
        @JacksonInject(value = "capacityDowngrade.enabled", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Boolean enabled,
        @JacksonInject(value = "capacityDowngrade.complexityLow", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Double complexityLow,
        @JacksonInject(value = "capacityDowngrade.complexityHigh", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Double complexityHigh,
        @JacksonInject(value = "capacityDowngrade.allowPinned", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Boolean allowPinned) {

    public static final double DEFAULT_COMPLEXITY_LOW = 0.0;
    public static final double DEFAULT_COMPLEXITY_HIGH = 0.6;

    public CapacityDowngrade {
        enabled = enabled != null && enabled;
        complexityLow = complexityLow == null ? DEFAULT_COMPLEXITY_LOW : complexityLow;
        complexityHigh = complexityHigh == null ? DEFAULT_COMPLEXITY_HIGH : complexityHigh;
        allowPinned = allowPinned != null && allowPinned;
    }

    /** Off; band [0, 0.6] and pinned requests kept once turned on. */
    public static CapacityDowngrade defaults() {
        return new CapacityDowngrade(null, null, null, null);
    }

    /** Whether a request of this complexity may go down. */
    public boolean allows(double complexity) {
        return complexity >= complexityLow && complexity <= complexityHigh;
    }
}
