package dev.zerolayer.telemetry.web;

import dev.zerolayer.telemetry.registry.NodeRegistry;
import dev.zerolayer.telemetry.registry.NodeRegistry.NodeRecord;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/nodes} and {@code GET /v1/nodes/{id}}: registered nodes and their latest sample. */
@RestController
public class NodesController {

    private final NodeRegistry registry;

    public NodesController(NodeRegistry registry) {
        this.registry = registry;
    }

    @GetMapping("/v1/nodes")
    public Map<String, List<NodeRecord>> nodes() {
        return Map.of("nodes", registry.nodes());
    }

    @GetMapping("/v1/nodes/{id}")
    public ResponseEntity<?> node(@PathVariable String id) {
        return registry.node(id).<ResponseEntity<?>>map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("type", "error",
                        "error", Map.of("type", "not_found_error", "message", "no node with id " + id))));
    }
}
