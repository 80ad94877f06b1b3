package dev.zerolayer.contracts.fallback;

/** Per-node circuit breaker and bulkhead settings, node-bypass hop limit and the cooldown of an open breaker. */
public record Resilience(
        float breakerFailureRatePercent,
        float breakerSlowCallRatePercent,
        long slowCallMs,
        int breakerWindowSize,
        int breakerMinimumCalls,
        long breakerCooldownMs,
        int bulkheadMaxConcurrent,
        int hopLimit) {

    public static Resilience defaults() {
        return new Resilience(50f, 80f, 10_000, 20, 5, 5_000, 256, 3);
    }
}
