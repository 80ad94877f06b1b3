package dev.zerolayer.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * console-service against the real broker and over real HTTP: the fleet joins health records with GPU samples and
 * (local mode) the simulator's active faults, the
 * decision stream, alerts and policy come from their topics, live events arrive over SSE, and admin actions reach
 * their owner (a real HTTP server standing in for fallback-service and the simulator) with the caller's token and
 * If-Match, its answer unchanged; an owner that cannot be reached is a 502 in the API's error shape.
 */
@ExtendWith(SharedKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private RunningService service;
    private KafkaTestClient kafka;
    private HttpServer owner;
    private final List<Map<String, String>> ownerCalls = new CopyOnWriteArrayList<>();
    private final AtomicInteger decisions = new AtomicInteger();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    void start() throws Exception {
        owner = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        owner.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> call = new ConcurrentHashMap<>();
            call.put("method", exchange.getRequestMethod());
            call.put("path", exchange.getRequestURI().toString());
            call.put("body", new String(body, StandardCharsets.UTF_8));
            call.put("authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            call.put("ifMatch", String.valueOf(exchange.getRequestHeaders().getFirst("If-Match")));
            if (!exchange.getRequestURI().getPath().equals("/admin/nodes")) {
                ownerCalls.add(call); // the fault poll of local mode is not an admin action
            }
            boolean admin = "Bearer it-token".equals(call.get("authorization"));
            String path = exchange.getRequestURI().getPath();
            boolean get = exchange.getRequestMethod().equals("GET");
            byte[] answer = get && path.equals("/v1/policy") ? "{\"tierTable\":[]}".getBytes(StandardCharsets.UTF_8)
                    : get && path.equals("/admin/nodes") ? ("{\"nodes\":[{\"id\":\"console-b\",\"faults\":"
                            + "[{\"type\":\"sm_saturation\"}]},{\"id\":\"console-a\",\"faults\":[]}]}")
                            .getBytes(StandardCharsets.UTF_8)
                    : admin ? "{\"ok\":true}".getBytes(StandardCharsets.UTF_8)
                    : "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"admin token\"}}"
                            .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("ETag", "\"7\"");
            exchange.sendResponseHeaders(exchange.getRequestMethod().equals("GET") || admin ? 200 : 401,
                    answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        owner.start();
        String ownerUrl = "http://127.0.0.1:" + owner.getAddress().getPort();
        kafka = new KafkaTestClient(SharedKafka.broker().bootstrapServers());
        service = RunningService.start(ConsoleApplication.class, SharedKafka.broker().bootstrapServers(),
                "zerolayer.console.fallback-url=" + ownerUrl, "zerolayer.console.simulator-url=" + ownerUrl,
                "zerolayer.console.local=true");
        await().atMost(WAIT).until(() -> service.get("/actuator/health").statusCode() == 200);
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
        if (owner != null) {
            owner.stop(0);
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void showsTheFleetDecisionsAlertsAndPolicyFromTheTopicsAndStreamsThemLive() throws Exception {
        // Given two nodes' health records, one node's GPU sample, the active policy and a firing alert on the topics
        Instant now = Instant.now();
        kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health("console-a", NodeState.HEALTHY, null, now));
        kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health("console-b", NodeState.UNAVAILABLE, "sm_saturation", now));
        kafka.publish(Topics.FALLBACK_POLICY, new FallbackPolicy(EventChecks.newEventId(), now, 1, 4, "admin:it",
                PolicyDocument.defaults()));
        kafka.publish(Topics.FALLBACK_ALERTS, new FallbackAlert(EventChecks.newEventId(), now, 1, "tier:sonnet",
                FallbackAlert.AlertStatus.FIRING, 0.31, 0.2, 60, now));

        // When decisions and samples keep arriving (the console reads them from the newest on, once it is assigned)
        // Then the snapshot shows both nodes, the sample's SM and memory, the decisions, the alert and the policy
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            kafka.publish(Topics.TELEMETRY_SAMPLES, new TelemetrySample(EventChecks.newEventId(), Instant.now(), 1,
                    "console-b", 0.99, 0, 0, 0, 30_000, 10_000, 0.1, 7, 2, 0.41, false, 0));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-console-" + decisions.incrementAndGet()));
            JsonNode snapshot = json(service.get("/console/api/snapshot").body());
            JsonNode nodes = snapshot.path("fleet").path("nodes");
            assertThat(nodes.size()).isEqualTo(2);
            assertThat(nodes.get(1).path("nodeId").asString()).isEqualTo("console-b");
            assertThat(nodes.get(1).path("state").asString()).isEqualTo("UNAVAILABLE");
            assertThat(nodes.get(1).path("diagnosis").asString()).isEqualTo("sm_saturation");
            assertThat(nodes.get(1).path("smActive").asDouble()).isEqualTo(0.99);
            assertThat(nodes.get(1).path("framebufferTotalMiB").asLong()).isEqualTo(40_000);
            assertThat(nodes.get(0).path("smActive").isNull()).isTrue();
            assertThat(nodes.get(1).path("faults").toString()).isEqualTo("[\"sm_saturation\"]");
            assertThat(nodes.get(0).path("faults").size()).isZero();
            assertThat(snapshot.path("decisions").size()).isPositive();
            assertThat(snapshot.path("decisions").get(0).path("tier").asString()).isEqualTo("sonnet");
            JsonNode candidates = snapshot.path("decisions").get(0).path("candidates");
            assertThat(candidates.size()).isEqualTo(2);
            assertThat(candidates.get(0).path("eligible").asBoolean()).isTrue();
            assertThat(candidates.get(0).path("weightedTerms").path("load").asDouble()).isEqualTo(0.3);
            assertThat(candidates.get(1).path("excludedBecause").asString()).isEqualTo("state UNAVAILABLE");
            assertThat(candidates.get(1).path("breakerOpen").asBoolean()).isTrue();
            // each node's breaker as the newest decision that weighed it reported
            assertThat(nodes.get(0).path("breakerOpen").asBoolean()).isFalse();
            assertThat(nodes.get(1).path("breakerOpen").asBoolean()).isTrue();
            assertThat(nodes.get(1).path("breakerSince").isNull()).isFalse();
            assertThat(snapshot.path("alerts").get(0).path("status").asString()).isEqualTo("FIRING");
            assertThat(snapshot.path("policy").path("version").asLong()).isEqualTo(4);
            assertThat(snapshot.path("series").path("buckets").size()).isPositive();
            assertThat(snapshot.path("local").asBoolean()).isTrue();
        });

        // And a page listening on the live events gets each new decision and the fleet
        List<String> lines = new CopyOnWriteArrayList<>();
        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                + "/console/api/events")).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                }
            } catch (Exception ignored) {
                // the stream is closed when the test ends
            }
        });
        reader.setDaemon(true);
        reader.start();
        String live = "req-console-live";
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            kafka.publish(Topics.ROUTER_DECISIONS, decision(live));
            assertThat(lines).contains("event:decision");
            assertThat(lines).anyMatch(line -> line.startsWith("data:") && line.contains(live));
            assertThat(lines).contains("event:fleet");
        });
        stream.body().close();
        reader.interrupt();
        // No prompt text exists on the topics, and the page gets nothing but ids, counts, hashes and scores
        assertThat(String.join("\n", lines)).doesNotContain("\"content\"");
    }

    @Test
    void adminActionsReachTheirOwnerWithTheCallersTokenAndComeBackUnchanged() throws Exception {
        // The editor's view of the active policy: version from the owner's ETag, the document as JSON
        JsonNode active = json(service.get("/console/api/policy").body());
        assertThat(active.path("version").asString()).isEqualTo("7");
        assertThat(active.path("document").path("tierTable").isArray()).isTrue();

        // A dry run goes through with the token and If-Match
        HttpResponse<String> dryRun = send("PUT", "/console/api/policy?dryRun=true", "{\"tierTable\":[]}",
                "Bearer it-token", "\"7\"");
        assertThat(dryRun.statusCode()).isEqualTo(200);
        Map<String, String> call = ownerCalls.get(ownerCalls.size() - 1);
        assertThat(call).containsEntry("method", "PUT").containsEntry("path", "/v1/policy?dryRun=true")
                .containsEntry("authorization", "Bearer it-token").containsEntry("ifMatch", "\"7\"")
                .containsEntry("body", "{\"tierTable\":[]}");

        // Without the token the owner's refusal comes back unchanged
        HttpResponse<String> refused = send("POST", "/console/api/faults/sonnet-1",
                "{\"type\":\"sm_saturation\",\"durationMs\":60000}", null, null);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).contains("authentication_error");
        assertThat(ownerCalls.get(ownerCalls.size() - 1)).containsEntry("path", "/admin/nodes/sonnet-1/faults");

        // A bad node id never leaves the console
        int before = ownerCalls.size();
        HttpResponse<String> bad = send("DELETE", "/console/api/faults/a%20b", null, "Bearer it-token", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"type\":\"error\"");
        assertThat(ownerCalls).hasSize(before);
    }

    @Test
    void anUnreachableOwnerIsABadGatewayInTheApisShape() throws Exception {
        try (RunningService detached = RunningService.start(ConsoleApplication.class,
                SharedKafka.broker().bootstrapServers(), "zerolayer.console.fallback-url=http://127.0.0.1:9",
                "zerolayer.console.local=false")) {
            HttpResponse<String> history = detached.get("/console/api/policy/history");
            assertThat(history.statusCode()).isEqualTo(502);
            assertThat(json(history.body()).path("type").asString()).isEqualTo("error");
            HttpResponse<String> faults = http.send(HttpRequest.newBuilder(URI.create(detached.baseUrl()
                    + "/console/api/faults/sonnet-1")).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(faults.statusCode()).as("no fault buttons outside local mode").isEqualTo(404);
        }
    }

    private HttpResponse<String> send(String method, String path, String body, String authorization,
            String ifMatch) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String body) {
        return EventCodec.mapper().readTree(body);
    }

    private static NodeHealth health(String node, NodeState state, String diagnosis, Instant at) {
        NodeRegistration registration = new NodeRegistration(EventChecks.newEventId(), at, 1, node, "sonnet",
                "sonnet-a100", null, "http://127.0.0.1:1", UpstreamProtocol.ANTHROPIC, "claude-sonnet-4-5", 16,
                "4xA100-40G");
        return new NodeHealth(EventChecks.newEventId(), at, 1, node, registration, state,
                state == NodeState.HEALTHY ? 0.95 : 0.3, List.of(), diagnosis, 0.4, 3, 0.5, null, List.of(), 40,
                false, 4);
    }

    private static RoutingDecision decision(String requestId) {
        return RoutingDecision.builder().eventId(EventChecks.newEventId()).occurredAt(Instant.now())
                .requestId(requestId).apiKeyId("key-it").clientApi("anthropic").requestedModel("claude-sonnet-4-5")
                .tier("sonnet").cluster("sonnet-a100").node("console-a").nodesTried(List.of("console-a"))
                .tokenCount(120).complexityScore(0.5).policyVersion(4).rulesFired(List.of("tier_table"))
                .routeTimeMicros(180).ttfbMillis(95).totalLatencyMillis(400).status(DecisionStatus.OK)
                .httpStatus(200).candidates(List.of(new CandidateScore("console-a", "sonnet", "sonnet-a100", null, 0.7,
                        Map.of("load", 0.6, "health", 1.0), Map.of("load", 0.3, "health", 0.4), false),
                        new CandidateScore("console-b", "sonnet", "sonnet-a100", "state UNAVAILABLE", 0, Map.of(),
                                Map.of(), true)))
                .build();
    }
}
