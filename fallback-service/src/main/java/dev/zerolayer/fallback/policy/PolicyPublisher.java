package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.fallback.FallbackPolicy;

/** Sends a policy version to {@code fallback.policy.v1}; true only once the broker acknowledged it. */
@FunctionalInterface
public interface PolicyPublisher {

    boolean publish(FallbackPolicy policy);
}
