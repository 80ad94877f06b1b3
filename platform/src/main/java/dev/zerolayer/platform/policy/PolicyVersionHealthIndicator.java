package dev.zerolayer.platform.policy;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.platform.view.CompactedView;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Reports the fallback policy version a service runs on (health component {@code policy}): the latest published
 * version from {@code fallback.policy.v1}, or version 0, the built-in default, until one arrives. Always UP.
 */
public class PolicyVersionHealthIndicator implements HealthIndicator {

    private final CompactedView<FallbackPolicy> view;

    public PolicyVersionHealthIndicator(CompactedView<FallbackPolicy> view) {
        this.view = view;
    }

    @Override
    public Health health() {
        return view.get(FallbackPolicy.KEY)
                .map(policy -> Health.up().withDetail("version", policy.version())
                        .withDetail("source", "published").withDetail("updatedBy", policy.updatedBy())
                        .withDetail("publishedAt", policy.occurredAt().toString()).build())
                .orElseGet(() -> Health.up().withDetail("version", 0).withDetail("source", "built-in default")
                        .build());
    }
}
