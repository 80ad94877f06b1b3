package dev.zerolayer.console.web;

import dev.zerolayer.console.admin.AdminProxy;
import dev.zerolayer.console.config.ConsoleProperties;
import dev.zerolayer.console.decisions.DecisionLog;
import dev.zerolayer.console.decisions.DecisionRow;
import dev.zerolayer.console.fleet.Fleet;
import dev.zerolayer.console.live.AlertRow;
import dev.zerolayer.console.live.LiveEvents;
import dev.zerolayer.console.live.PolicyRow;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.platform.web.ApiException;
import dev.zerolayer.platform.view.CompactedView;
import java.net.URI;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.node.ObjectNode;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The console's HTTP side: the page, a snapshot of everything it shows, the live events, and the admin actions passed
 * to their owners (policy: fallback-service; faults, in local mode only: the simulator).
 */
@RestController
public class ConsoleController {

    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final int SNAPSHOT_DECISIONS = 200;

    private final ConsoleProperties properties;
    private final Fleet fleet;
    private final DecisionLog decisions;
    private final CompactedView<FallbackAlert> alerts;
    private final CompactedView<FallbackPolicy> policy;
    private final LiveEvents events;
    private final AdminProxy proxy;

    public ConsoleController(ConsoleProperties properties, Fleet fleet, DecisionLog decisions,
            CompactedView<FallbackAlert> alerts, CompactedView<FallbackPolicy> policy, LiveEvents events,
            AdminProxy proxy) {
        this.properties = properties;
        this.fleet = fleet;
        this.decisions = decisions;
        this.alerts = alerts;
        this.policy = policy;
        this.events = events;
        this.proxy = proxy;
    }

    @GetMapping("/")
    ResponseEntity<Void> root() {
        return ResponseEntity.status(302).location(URI.create("/console/")).build();
    }

    @GetMapping("/console")
    ResponseEntity<Void> console() {
        return ResponseEntity.status(302).location(URI.create("/console/")).build();
    }

    @GetMapping("/console/")
    ResponseEntity<Resource> page() {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML)
                .body(new ClassPathResource("static/console/index.html"));
    }

    @GetMapping("/console/api/snapshot")
    Map<String, Object> snapshot() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("local", properties.local());
        body.put("fleet", Map.of("nodes", fleet.nodes()));
        body.put("decisions", decisions.newest(SNAPSHOT_DECISIONS));
        body.put("alerts", alerts.values().stream().map(AlertRow::of)
                .sorted(Comparator.comparing(AlertRow::scope)).toList());
        body.put("policy", policy.get(FallbackPolicy.KEY).map(PolicyRow::of).orElse(null));
        body.put("series", decisions.series());
        return body;
    }

    @GetMapping(path = "/console/api/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<Object>> live() {
        return events.stream();
    }

    @GetMapping("/console/api/decisions/{requestId}")
    DecisionRow decision(@PathVariable String requestId) {
        return decisions.find(requestId).orElseThrow(() -> new ApiException(404, "not_found_error",
                "no decision " + requestId + " among the newest " + properties.decisionsKept() + " the console keeps"));
    }

    /** The active policy as the editor needs it: {@code {version, etag, document}}. */
    @GetMapping("/console/api/policy")
    Mono<ResponseEntity<byte[]>> activePolicy(@RequestHeader HttpHeaders headers) {
        return proxy.forward(HttpMethod.GET, fallback("/v1/policy"), json(headers), null).map(response -> {
            String etag = response.getHeaders().getETag();
            if (!response.getStatusCode().is2xxSuccessful() || etag == null) {
                return response;
            }
            ObjectNode body = EventCodec.mapper().createObjectNode();
            body.put("version", etag.replace("\"", ""));
            body.put("etag", etag);
            body.set("document", EventCodec.mapper().readTree(response.getBody()));
            return ResponseEntity.ok().eTag(etag).contentType(MediaType.APPLICATION_JSON)
                    .body(EventCodec.bytes(body));
        });
    }

    @GetMapping("/console/api/policy/history")
    Mono<ResponseEntity<byte[]>> policyHistory(@RequestHeader HttpHeaders headers) {
        return proxy.forward(HttpMethod.GET, fallback("/v1/policy/history"), json(headers), null);
    }

    @PutMapping("/console/api/policy")
    Mono<ResponseEntity<byte[]>> changePolicy(@RequestHeader HttpHeaders headers,
            @RequestParam(name = "dryRun", defaultValue = "false") boolean dryRun,
            @RequestBody(required = false) byte[] body) {
        URI target = UriComponentsBuilder.fromUri(fallback("/v1/policy")).queryParam("dryRun", dryRun).build()
                .toUri();
        return proxy.forward(HttpMethod.PUT, target, json(headers), body == null ? new byte[0] : body);
    }

    @PostMapping("/console/api/faults/{node}")
    Mono<ResponseEntity<byte[]>> injectFault(@PathVariable String node, @RequestHeader HttpHeaders headers,
            @RequestBody(required = false) byte[] body) {
        return proxy.forward(HttpMethod.POST, simulator(node), json(headers), body == null ? new byte[0] : body);
    }

    @DeleteMapping("/console/api/faults/{node}")
    Mono<ResponseEntity<byte[]>> clearFaults(@PathVariable String node, @RequestHeader HttpHeaders headers) {
        return proxy.forward(HttpMethod.DELETE, simulator(node), json(headers), null);
    }

    private URI fallback(String path) {
        return properties.fallbackUrl().resolve(path);
    }

    private URI simulator(String node) {
        if (!properties.local()) {
            throw new ApiException(404, "not_found_error", "fault injection is offered in local mode only (the "
                    + "simulated fleet); set zerolayer.console.local=true");
        }
        if (!NODE_ID.matcher(node).matches()) {
            throw new ApiException(400, "invalid_request_error", "node: 1 to 128 letters, digits and . _ : -");
        }
        return properties.simulatorUrl().resolve("/admin/nodes/" + node + "/faults");
    }

    private static HttpHeaders json(HttpHeaders incoming) {
        HttpHeaders headers = new HttpHeaders();
        headers.addAll(incoming);
        headers.set(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE);
        return headers;
    }
}
