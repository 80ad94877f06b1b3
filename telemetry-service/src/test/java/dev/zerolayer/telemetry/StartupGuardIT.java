package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/** A service outlives a missing broker (health DOWN, then binds by itself) and refuses a topic with the wrong policy. */
class StartupGuardIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void startsWithoutABrokerReportsDownAndRecoversWhenItAppears() throws Exception {
        // Given a broker that exists on paper (fixed port) but is not running yet
        Path dir = Files.createTempDirectory(Path.of("target"), "kafka-late-");
        KraftBroker broker = KraftBroker.create(dir, 0, 0, Map.of());
        try (RunningService service = RunningService.start(TelemetryApplication.class, broker.bootstrapServers())) {
            // Then the service is up, but says DOWN and why
            var health = service.get("/actuator/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).contains("\"topicGuard\"").contains("\"status\":\"DOWN\"");

            // When the broker comes up
            broker.start();

            // Then it provisions, binds and turns UP by itself, and reads its input
            await().atMost(WAIT).until(() -> service.get("/actuator/health").statusCode() == 200);
            try (KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers())) {
                kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of("late-1", "opus", "opus-a100-80g", null,
                        "http://127.0.0.1:18102", UpstreamProtocol.OPENAI, "claude-opus-4-1", 8, "8xA100-80G"));
                await().atMost(WAIT).until(() -> service.bean(HealthTracker.class).registration("late-1").isPresent());
            }
        } finally {
            broker.close();
        }
    }

    @Test
    void refusesToRunWhenACompactedTopicHasTheDeletePolicy() throws Exception {
        // Given a broker where the policy topic exists with cleanup.policy=delete
        Path dir = Files.createTempDirectory(Path.of("target"), "kafka-wrong-");
        try (KraftBroker broker = KraftBroker.create(dir, 0, 0, Map.of()).start()) {
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(Topics.FALLBACK_POLICY, 1, (short) 1)
                        .configs(Map.of("cleanup.policy", "delete")))).all().get();
            }
            System.setProperty("zerolayer.no-exit", "true");
            try {
                // When the service starts on it
                RunningService service = RunningService.start(TelemetryApplication.class, broker.bootstrapServers());
                TopicGuard guard = service.bean(TopicGuard.class);

                // Then it names the topic and shuts itself down instead of running on it
                await().atMost(WAIT).untilAsserted(() -> assertThat(guard.health().getDetails().get("problem"))
                        .asString().contains(Topics.FALLBACK_POLICY).contains("cleanup.policy=delete"));
                await().atMost(WAIT).until(() -> !service.isActive());
            } finally {
                System.clearProperty("zerolayer.no-exit");
            }
        }
    }
}
