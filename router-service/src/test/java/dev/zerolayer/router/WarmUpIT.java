package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.warmup.WarmUp;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A router warms up through its own port before it is ready: every synthetic call, decided over the router's own fleet
 * with each node served by the stand-in, is answered 2xx, readiness waits for it, and nothing of it reaches the router's own state, meters or the decision topic; the
 * warm-up paths are gone afterwards.
 */
class WarmUpIT {

    /** A broker of its own: the nodes this test publishes must not reach other tests' routers. */
    @TempDir
    Path dir;

    private static final int REQUESTS = 4_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @SuppressWarnings("unchecked")
    void warmsUpEveryClientApiBeforeReadinessAndLeavesNoTrace() throws Exception {
        // Given a router told to warm up with a number of requests, not limited by time
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
             RunningService service = RunningService.start(RouterApplication.class, broker.bootstrapServers(),
                "zerolayer.router.warm-up.enabled=true", "zerolayer.router.warm-up.requests=" + REQUESTS,
                "zerolayer.router.warm-up.max-duration=5m");
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers())) {
            // And a healthy node of this test's in every cluster of the built-in policy (at an address nothing
            // serves), published as it starts (the warm-up mirrors the router's fleet again every 1,000 requests)
            List<String> ours = new ArrayList<>();
            for (TierSpec tier : PolicyDocument.defaults().tiers()) {
                for (String cluster : tier.clusters()) {
                    String id = "warm-up-it-" + cluster + "-" + UUID.randomUUID();
                    ours.add(id);
                    kafka.publish(Topics.TELEMETRY_NODE_HEALTH, new NodeHealth(UUID.randomUUID().toString(),
                            Instant.now(), 1, id, NodeRegistration.of(id, tier.name(), cluster, null,
                                    "http://127.0.0.1:9", UpstreamProtocol.ANTHROPIC, "m", 64, "test"),
                            NodeState.HEALTHY, 1.0, List.of(), null, 0, 0, 0, null, List.of(), 0, false, 0));
                }
            }
            WarmUp warmUp = service.bean(WarmUp.class);

            // When it starts: readiness refuses traffic for as long as the warm-up runs
            await().atMost(Duration.ofMinutes(3)).until(() -> {
                int readiness = service.get("/actuator/health/readiness").statusCode();
                boolean done = warmUp.done();
                assertThat(done || readiness == 503).as("ready while warming up").isTrue();
                return done;
            });

            // Then every synthetic call was answered 2xx, all of them sent
            JsonNode health = JSON.readTree(service.get("/actuator/health").body()).path("components").path("warmUp");
            assertThat(health.path("status").asString()).isEqualTo("UP");
            assertThat(health.path("details").path("answered").asLong()).isEqualTo(REQUESTS);
            assertThat(health.path("details").path("failed").asLong()).isZero();
            // over the router's own fleet (ours among it), each node served by the stand-in instead
            assertThat(health.path("details").path("nodes").asInt()).isGreaterThanOrEqualTo(ours.size());
            assertThat(health.path("details").path("endedBy").asString()).isEqualTo("all requests");
            assertThat(health.path("details").path("jitCompileMs").asLong()).isPositive();

            // And readiness follows once the views are loaded
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> service.get("/actuator/health/readiness").statusCode() == 200);

            // And none of it is in the router's own fleet, meters or on the decision topic
            CompactedView<NodeHealth> fleet = service.bean("nodeHealth", CompactedView.class);
            assertThat(fleet.snapshot().keySet()).containsAll(ours).noneMatch(id -> id.startsWith("warm-up-")
                    && !ours.contains(id));
            assertThat(ours).allSatisfy(id -> assertThat(fleet.get(id).orElseThrow().registration().upstreamBaseUrl())
                    .isEqualTo("http://127.0.0.1:9"));
            MeterRegistry meters = service.bean(MeterRegistry.class);
            assertThat(meters.find("zerolayer_requests").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
            assertThat(kafka.readAll(Topics.ROUTER_DECISIONS)).noneMatch(record -> record.value() != null
                    && new String(record.value(), StandardCharsets.UTF_8).contains("warm-up-"));

            // And the warm-up paths answer 404 in the API's error shape now
            HttpResponse<String> closed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.baseUrl() + WarmUp.PREFIX + "/v1/messages"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":8,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(closed.statusCode()).isEqualTo(404);
            assertThat(closed.body()).contains("\"type\":\"error\"", "not_found_error");
        }
    }
}
