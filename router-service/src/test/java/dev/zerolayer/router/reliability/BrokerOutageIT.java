package dev.zerolayer.router.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.router.RouterApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The router's own broker is stopped for 30 s under steady traffic and started again on the same port and data: every
 * request is served on the last-known state (node-health going stale on the way, so the router routes on its own
 * observations), the health endpoint shows the node-health view stale, and every decision event of the outage reaches
 * {@code router.decisions.v1} after recovery.
 */
class BrokerOutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void routingContinuesThroughA30SecondOutageAndNoDecisionEventIsLost() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
                KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
                TestFleet fleet = new TestFleet();
                RunningService router = RunningService.start(RouterApplication.class, broker.bootstrapServers())) {
            // Given a router serving a defined fleet
            fleet.publishTo(router, kafka);
            List<String> ids = new ArrayList<>();
            ids.addAll(sendEvery(router, Duration.ofMillis(100), Duration.ofSeconds(2)));

            // When the broker stops for 30 s while requests keep coming
            broker.stop();
            List<String> during = sendEvery(router, Duration.ofMillis(100), OUTAGE);
            ids.addAll(during);

            // Then the node-health view shows as stale on the health endpoint
            JsonNode views = EventCodec.mapper().readTree(router.get("/actuator/health").body())
                    .path("components").path("views").path("details").path(Topics.TELEMETRY_NODE_HEALTH);
            assertThat(views.path("stale").asBoolean(false)).as(views.toString()).isTrue();
            assertThat(views.path("staleSince").asString("")).isNotEmpty();

            // When the broker is back
            broker.start();

            // Then every decision event of the run, the outage's included, reaches the topic exactly once
            System.out.printf("broker outage: %d requests during %d s, all served%n", during.size(),
                    OUTAGE.toSeconds());
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                Set<String> published = new HashSet<>();
                int records = 0;
                for (var record : kafka.readAll(Topics.ROUTER_DECISIONS)) {
                    String id = EventCodec.decode(record.value(), RoutingDecision.class).requestId();
                    if (ids.contains(id)) {
                        records++;
                        published.add(id);
                    }
                }
                assertThat(published).containsExactlyInAnyOrderElementsOf(ids);
                assertThat(records).isEqualTo(ids.size());
            });
        }
    }

    /** Sequential non-streaming requests at a fixed pace; each must be served. Returns their request ids. */
    private List<String> sendEvery(RunningService router, Duration pace, Duration length) throws Exception {
        List<String> ids = new ArrayList<>();
        long end = System.nanoTime() + length.toNanos();
        long next = System.nanoTime();
        while (System.nanoTime() < end) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(router.baseUrl()
                    + "/v1/messages")).timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                    .header("anthropic-routing-priority", "sonnet")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"outage check\"}]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            ids.add(response.headers().firstValue("request-id").orElseThrow());
            next += pace.toNanos();
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // pacing the traffic, not synchronising
            }
        }
        return ids;
    }
}
