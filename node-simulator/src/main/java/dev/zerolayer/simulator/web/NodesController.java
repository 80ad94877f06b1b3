package dev.zerolayer.simulator.web;

import dev.zerolayer.platform.admin.AdminGuard;
import dev.zerolayer.platform.admin.AdminGuard.AdminPrincipal;
import dev.zerolayer.simulator.faults.ActiveFault;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.fleet.Fleet;
import dev.zerolayer.simulator.node.NodeSnapshot;
import dev.zerolayer.simulator.node.SimulatedNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fleet's admin API: {@code GET /admin/nodes} (ports, state, load, active faults), {@code GET /admin/nodes/{id}},
 * {@code POST /admin/nodes/{id}/faults} with {@code {"type","durationMs","intensity"}} and
 * {@code DELETE /admin/nodes/{id}/faults}; the two that change the fleet need the admin token ({@link AdminGuard}:
 * none 401, wrong 403, none configured 403 for everyone) before anything else is looked at; unknown node 404, unknown
 * fault type or bad body 400, each as {@code {"type":"error","error":{"type","message"}}}.
 */
@RestController
public class NodesController {

    /** Longest fault accepted: one day. */
    static final long MAX_DURATION_MS = Duration.ofDays(1).toMillis();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Logger log = LoggerFactory.getLogger(NodesController.class);

    private final Fleet fleet;
    private final AdminGuard guard;

    public NodesController(Fleet fleet, AdminGuard guard) {
        this.fleet = fleet;
        this.guard = guard;
    }

    @GetMapping("/admin/nodes")
    public Map<String, List<Map<String, Object>>> nodes() {
        return Map.of("nodes", fleet.nodes().stream().map(NodesController::view).toList());
    }

    @GetMapping("/admin/nodes/{id}")
    public ResponseEntity<?> node(@PathVariable String id) {
        Optional<SimulatedNode> node = fleet.node(id);
        return node.<ResponseEntity<?>>map(n -> ResponseEntity.ok(view(n))).orElseGet(() -> unknownNode(id));
    }

    @PostMapping("/admin/nodes/{id}/faults")
    public Mono<ResponseEntity<?>> inject(
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String id, @RequestBody(required = false) String body) {
        AdminPrincipal principal = guard.require(authorization);
        // injecting a crash waits for the node's port to close: off the event loop
        return Mono.<ResponseEntity<?>>fromCallable(() -> injectNow(id, body, principal))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private ResponseEntity<?> injectNow(String id, String body, AdminPrincipal principal) {
        Optional<SimulatedNode> node = fleet.node(id);
        if (node.isEmpty()) {
            return unknownNode(id);
        }
        JsonNode request;
        try {
            request = body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (JacksonException e) {
            return badRequest("request body is not valid JSON");
        }
        if (request == null || !request.isObject()) {
            return badRequest("request body must be a JSON object with type, durationMs and intensity");
        }
        JsonNode typeNode = request.get("type");
        if (typeNode == null || !typeNode.isString()) {
            return badRequest("type: Field required (one of " + FaultType.wireNames() + ")");
        }
        Optional<FaultType> type = FaultType.fromWireName(typeNode.stringValue());
        if (type.isEmpty()) {
            return badRequest("type: unknown fault type; expected one of " + FaultType.wireNames());
        }
        JsonNode durationNode = request.get("durationMs");
        if (durationNode == null || !durationNode.isIntegralNumber() || !durationNode.canConvertToLong()
                || durationNode.longValue() < 1 || durationNode.longValue() > MAX_DURATION_MS) {
            return badRequest("durationMs: must be an integer between 1 and " + MAX_DURATION_MS);
        }
        JsonNode intensityNode = request.get("intensity");
        double intensity = 1.0;
        if (intensityNode != null && !intensityNode.isNull()) {
            if (!intensityNode.isNumber() || !(intensityNode.doubleValue() >= 0.0 && intensityNode.doubleValue() <= 1.0)) {
                return badRequest("intensity: must be a number in [0,1]");
            }
            intensity = intensityNode.doubleValue();
        }
        ActiveFault fault = node.get().inject(type.get(), Duration.ofMillis(durationNode.longValue()), intensity);
        log.info("fault {} (intensity {}, {} ms) injected on {} by {}", type.get().wireName(), intensity,
                durationNode.longValue(), id, principal.id());
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("node", id);
        created.put("fault", view(fault));
        created.put("by", principal.id());
        return ResponseEntity.status(HttpStatus.CREATED).body(created);
    }

    @DeleteMapping("/admin/nodes/{id}/faults")
    public Mono<ResponseEntity<?>> clear(
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String id) {
        AdminPrincipal principal = guard.require(authorization);
        return Mono.<ResponseEntity<?>>fromCallable(() -> clearNow(id, principal))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private ResponseEntity<?> clearNow(String id, AdminPrincipal principal) {
        Optional<SimulatedNode> node = fleet.node(id);
        if (node.isEmpty()) {
            return unknownNode(id);
        }
        List<Map<String, Object>> cleared = node.get().clearFaults().stream().map(NodesController::view).toList();
        log.info("{} fault(s) cleared on {} by {}", cleared.size(), id, principal.id());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("node", id);
        body.put("cleared", cleared);
        body.put("by", principal.id());
        return ResponseEntity.ok(body);
    }

    static Map<String, Object> view(SimulatedNode node) {
        NodeSnapshot snapshot = node.snapshot();
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("running", snapshot.totalRunning());
        load.put("waiting", snapshot.totalWaiting());
        load.put("capacity", snapshot.capacity());
        load.put("kvCacheUsage", snapshot.kvUsage());
        load.put("kvBlocks", snapshot.kvBlocksUsed());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", node.id());
        view.put("tier", node.spec().tier());
        view.put("cluster", node.spec().cluster());
        view.put("standbyOf", node.spec().standbyOf());
        view.put("protocol", node.spec().protocol().wireName());
        view.put("model", node.spec().model());
        view.put("profile", node.spec().profile().name());
        view.put("port", node.port());
        view.put("url", node.baseUrl());
        view.put("latency", node.latency().enabled());
        view.put("state", snapshot.status().wireName());
        view.put("load", load);
        view.put("faults", snapshot.faults().stream().map(NodesController::view).toList());
        return view;
    }

    static Map<String, Object> view(ActiveFault fault) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("type", fault.type().wireName());
        view.put("intensity", fault.intensity());
        view.put("startedAt", fault.startedAt().toString());
        view.put("endsAt", fault.endsAt().toString());
        return view;
    }

    private static ResponseEntity<Map<String, Object>> unknownNode(String id) {
        return error(HttpStatus.NOT_FOUND, "not_found_error", "unknown node '" + id + "'");
    }

    private static ResponseEntity<Map<String, Object>> badRequest(String message) {
        return error(HttpStatus.BAD_REQUEST, "invalid_request_error", message);
    }

    static ResponseEntity<Map<String, Object>> error(HttpStatus status, String type, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "error");
        body.put("error", error);
        return ResponseEntity.status(status).body(body);
    }
}
