package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@code policyStore} on the health endpoint: UP with the active version once the topic has been read, DOWN before. */
public class PolicyStoreHealth implements HealthIndicator {

    private final PolicyStore store;

    public PolicyStoreHealth(PolicyStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        if (!store.ready()) {
            return Health.down().withDetail("reason", "fallback.policy.v1 not read yet").build();
        }
        FallbackPolicy active = store.active();
        return Health.up().withDetail("version", active.version()).withDetail("updatedBy", active.updatedBy())
                .withDetail("since", active.occurredAt().toString()).withDetail("versions", store.history().size())
                .build();
    }
}
