package dev.zerolayer.platform.view;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Shows every compacted-topic view of the service: keys held, records applied, last update (never if nothing yet), and
 * whether it is stale and since when (nothing since start, or silent past its writer's heartbeat). Stays UP: a service
 * keeps working on last-known state or built-in defaults.
 */
public class ViewsHealthIndicator implements HealthIndicator {

    private final List<CompactedView<?>> views;

    public ViewsHealthIndicator(List<CompactedView<?>> views) {
        this.views = views;
    }

    @Override
    public Health health() {
        Health.Builder health = Health.up();
        for (CompactedView<?> view : views) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("keys", view.size());
            detail.put("applied", view.applied());
            detail.put("lastUpdate", view.lastUpdate().map(Object::toString).orElse("never"));
            var staleSince = view.staleSince();
            detail.put("stale", staleSince.isPresent());
            staleSince.ifPresent(since -> detail.put("staleSince", since.toString()));
            health.withDetail(view.topic(), detail);
        }
        return health.build();
    }
}
