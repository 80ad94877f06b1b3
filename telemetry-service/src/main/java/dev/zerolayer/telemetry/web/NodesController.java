package dev.zerolayer.telemetry.web;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.web.ApiException;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/nodes} and {@code GET /v1/nodes/{id}}: the same health records the service publishes. */
@RestController
public class NodesController {

    private final HealthTracker tracker;

    public NodesController(HealthTracker tracker) {
        this.tracker = tracker;
    }

    @GetMapping("/v1/nodes")
    public Map<String, List<NodeHealth>> nodes() {
        return Map.of("nodes", tracker.snapshot());
    }

    @GetMapping("/v1/nodes/{id}")
    public NodeHealth node(@PathVariable String id) {
        return tracker.snapshot(id)
                .orElseThrow(() -> new ApiException(404, "not_found_error", "no node with that id"));
    }
}
