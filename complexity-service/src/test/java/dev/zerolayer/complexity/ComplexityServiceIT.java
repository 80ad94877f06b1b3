package dev.zerolayer.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.complexity.observation.ObservedDecisions;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** complexity-service against the real broker: counts decisions per tier, dead-letters poison and keeps reading. */
@ExtendWith(SharedKafka.class)
class ComplexityServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    void countsDecisionsAndFallbacksPerTierAndDeadLettersPoisonWithoutStopping() {
        try (RunningService service = RunningService.start(ComplexityApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            ObservedDecisions observed = service.bean(ObservedDecisions.class);

            // Given a running service
            // When the router publishes two haiku decisions and a sonnet decision that fell back
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "haiku", false));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "haiku", false));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "sonnet", true));

            // Then it counts them per tier
            await().atMost(WAIT).until(() -> observed.tier("haiku").equals(TierStats.of(2, 0))
                    && observed.tier("sonnet").equals(TierStats.of(1, 1)));

            // When junk arrives on the decisions topic, followed on the same partition by a good opus fallback
            String request = "req-" + UUID.randomUUID();
            kafka.send(Topics.ROUTER_DECISIONS, request, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.ROUTER_DECISIONS, decision(request, "opus", true));

            // Then the consumer keeps going, and the junk is on the dead-letter topic with its reason
            await().atMost(WAIT).until(() -> observed.tier("opus").equals(TierStats.of(1, 1)));
            String dlq = Topics.deadLetterTopic(Topics.ROUTER_DECISIONS, Topics.COMPLEXITY);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .anySatisfy(record -> {
                        assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(request);
                    }));
            assertThat(observed.total()).isEqualTo(TierStats.of(4, 2));

            // And the endpoint, health and metrics show it
            assertThat(service.get("/v1/complexity/observed").body())
                    .contains("\"haiku\":{\"decisions\":2,\"fallbacks\":0,\"fallbackRate\":0.0}")
                    .contains("\"sonnet\":{\"decisions\":1,\"fallbacks\":1,\"fallbackRate\":1.0}")
                    .contains("\"total\":{\"decisions\":4,\"fallbacks\":2,\"fallbackRate\":0.5}");
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            assertThat(service.get("/actuator/prometheus").body())
                    .contains("zerolayer_events_rejected_total{reason=\"malformed\"");
        }
    }

    static RoutingDecision decision(String requestId, String tier, boolean fallback) {
        String node = tier + "-1";
        return new RoutingDecision(UUID.randomUUID().toString(), Instant.now(), 1, requestId, "s", "k", "anthropic",
                "claude-" + tier, false, tier, tier + "-cluster", node, List.of(node), 12, 0.1, "m1", 1,
                List.of("tier_table"), fallback, fallback ? "node_unavailable" : null, null, false, List.of(), 90, 20,
                0.5, 100, 12, 30, DecisionStatus.OK, 200);
    }
}
