package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.telemetry.observation.RouterObservations;
import dev.zerolayer.telemetry.health.HealthTracker;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** telemetry-service against the real broker: reads its inputs, dead-letters poison, rebuilds its views after restart. */
@ExtendWith(SharedKafka.class)
class TelemetryServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    void readsSamplesAndDecisionsAndDeadLettersPoisonWithoutStopping() throws Exception {
        String node = "n-" + UUID.randomUUID();
        try (RunningService service = RunningService.start(TelemetryApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            HealthTracker tracker = service.bean(HealthTracker.class);

            // Given a registered node that sends a sample
            kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(node, "haiku", "haiku-l4", null,
                    "http://127.0.0.1:18100", UpstreamProtocol.ANTHROPIC, "claude-haiku-4-5", 8, "2xL4"));
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, 0.5));
            await().atMost(WAIT).until(() -> tracker.snapshot(node).map(h -> h.lastSampleAgeMs() >= 0
                    && h.state() != dev.zerolayer.contracts.telemetry.NodeState.DOWN).orElse(false));

            // When a router decision names it, then a record that is no decision, then another decision
            kafka.publish(Topics.ROUTER_DECISIONS, decision(node));
            kafka.send(Topics.ROUTER_DECISIONS, "req-junk", "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.ROUTER_DECISIONS, decision(node));
            await().atMost(WAIT).until(() -> service.bean(RouterObservations.class).servedBy(node) == 2);
            String decisionsDlq = Topics.deadLetterTopic(Topics.ROUTER_DECISIONS, Topics.TELEMETRY);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(decisionsDlq))
                    .extracting(r -> KafkaTestClient.header(r, "x-exception-message"))
                    .anySatisfy(reason -> assertThat(reason).contains("malformed")));

            // When junk and a sample from an unknown node arrive, then a good sample
            kafka.send(Topics.TELEMETRY_SAMPLES, node, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample("unknown-" + UUID.randomUUID(), 0.2));
            kafka.publish(Topics.TELEMETRY_SAMPLES, TelemetrySample.now(node, 0.5, 1e9, 1e9, 0.2, 20_000, 4_000, 0.1, 3,
                    7, 0.3, false, 0));

            // Then the consumer keeps going, and both bad records are on the dead-letter topic with their reasons
            await().atMost(WAIT).until(() -> tracker.snapshot(node).orElseThrow().queueDepth() == 7);
            String dlq = Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, Topics.TELEMETRY);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .extracting(r -> KafkaTestClient.header(r, "x-exception-message"))
                    .anySatisfy(reason -> assertThat(reason).contains("malformed"))
                    .anySatisfy(reason -> assertThat(reason).contains("sample from unregistered node")));
            MeterRegistry meters = service.bean(MeterRegistry.class);
            assertThat(meters.find("zerolayer.events.rejected").tag("topic", Topics.TELEMETRY_SAMPLES).counters()
                    .stream().mapToDouble(c -> c.count()).sum()).isGreaterThanOrEqualTo(2);
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            assertThat(service.get("/v1/nodes/" + node).body()).contains("\"queueDepth\":7");

            // And an unknown node or path answers 404 and a wrong method 405, all in the API error shape
            HttpResponse<String> unknownNode = service.get("/v1/nodes/no-such-node");
            assertThat(unknownNode.statusCode()).isEqualTo(404);
            assertThat(unknownNode.body()).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\","
                    + "\"message\":\"no node with that id\"}}");
            HttpResponse<String> unknownPath = service.get("/v1/nowhere");
            assertThat(unknownPath.statusCode()).isEqualTo(404);
            assertThat(unknownPath.body()).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\","
                    + "\"message\":\"not found: GET /v1/nowhere\"}}");
            HttpResponse<String> wrongMethod = send(service, "DELETE", "/v1/nodes");
            assertThat(wrongMethod.statusCode()).isEqualTo(405);
            assertThat(wrongMethod.headers().firstValue("Allow")).hasValueSatisfying(allow -> assertThat(allow)
                    .contains("GET"));
            assertThat(wrongMethod.body()).isEqualTo("{\"type\":\"error\",\"error\":{"
                    + "\"type\":\"invalid_request_error\",\"message\":\"method not allowed: DELETE /v1/nodes\"}}");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void rebuildsTheLatestPolicyFromTheBeginningAfterARestart() {
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            long base = System.currentTimeMillis();
            RunningService first = RunningService.start(TelemetryApplication.class, servers());
            try {
                // Given two policy versions read by a running service
                kafka.publish(Topics.FALLBACK_POLICY, policy(base + 1));
                kafka.publish(Topics.FALLBACK_POLICY, policy(base + 2));
                CompactedView<FallbackPolicy> view = first.bean("fallbackPolicy", CompactedView.class);
                await().atMost(WAIT).until(() -> view.get(FallbackPolicy.KEY)
                        .map(p -> p.version() == base + 2).orElse(false));
            } finally {
                first.close();
            }

            // When a newer version is published while it is down, and it starts again
            kafka.publish(Topics.FALLBACK_POLICY, policy(base + 3));
            try (RunningService second = RunningService.start(TelemetryApplication.class, servers())) {
                CompactedView<FallbackPolicy> view = second.bean("fallbackPolicy", CompactedView.class);

                // Then its fresh view holds the latest value per key, read from the beginning
                await().atMost(WAIT).until(() -> view.get(FallbackPolicy.KEY)
                        .map(p -> p.version() == base + 3).orElse(false));
                assertThat(view.size()).isEqualTo(1);
            }
        }
    }

    static TelemetrySample sample(String node, double sm) {
        return TelemetrySample.now(node, sm, 1e9, 1e9, 0.2, 20_000, 4_000, 0.1, 3, 0, 0.3, false, 0);
    }

    static RoutingDecision decision(String node) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId("req-" + UUID.randomUUID()).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-haiku-4-5").tier("haiku").cluster("haiku-l4").node(node)
                .nodesTried(List.of(node)).tokenCount(12).complexityScore(0.1).complexityModelVersion("m1")
                .policyVersion(1).rulesFired(List.of("tier_table")).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30)
                .status(DecisionStatus.OK).httpStatus(200).build();
    }

    static FallbackPolicy policy(long version) {
        return new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1, version, "test",
                PolicyDocument.defaults());
    }

    private static HttpResponse<String> send(RunningService service, String method, String path) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        return http.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
