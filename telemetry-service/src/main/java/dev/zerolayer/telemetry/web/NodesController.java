package dev.zerolayer.telemetry.web;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.web.ApiException;
import dev.zerolayer.telemetry.health.HealthTracker;
import dev.zerolayer.telemetry.ownership.OtherReplicasNodes;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/nodes} and {@code GET /v1/nodes/{id}}: the health records of the whole fleet from any replica, live
 * for the nodes this replica runs and as last published for the others.
 */
@RestController
public class NodesController {

    private final HealthTracker tracker;
    private final OtherReplicasNodes others;

    public NodesController(HealthTracker tracker, OtherReplicasNodes others) {
        this.tracker = tracker;
        this.others = others;
    }

    @GetMapping("/v1/nodes")
    public Map<String, List<NodeHealth>> nodes() {
        return Map.of("nodes", Stream.concat(tracker.snapshot().stream(), others.all().stream())
                .sorted(Comparator.comparing(NodeHealth::nodeId)).toList());
    }

    @GetMapping("/v1/nodes/{id}")
    public NodeHealth node(@PathVariable String id) {
        return tracker.snapshot(id).or(() -> others.get(id))
                .orElseThrow(() -> new ApiException(404, "not_found_error", "no node with that id"));
    }
}
