package dev.zerolayer.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.simulator.prewarm.PrewarmInbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** node-simulator against the real broker: records prewarm commands per node, dead-letters poison and keeps reading. */
@ExtendWith(SharedKafka.class)
class SimulatorServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    void recordsPrewarmCommandsPerNodeAndDeadLettersPoisonWithoutStopping() {
        String sonnet = "sonnet-" + UUID.randomUUID();
        String haiku = "haiku-" + UUID.randomUUID();
        try (RunningService service = RunningService.start(SimulatorApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            PrewarmInbox inbox = service.bean(PrewarmInbox.class);

            // Given a running simulator
            // When the cache service asks one node to prewarm two sessions and another node one
            kafka.publish(Topics.CACHE_PREWARM, prewarm(sonnet, "sess-a", List.of(11L, 12L)));
            kafka.publish(Topics.CACHE_PREWARM, prewarm(sonnet, "sess-b", List.of(21L)));
            kafka.publish(Topics.CACHE_PREWARM, prewarm(haiku, "sess-c", List.of(31L)));

            // Then each node's commands are recorded in order
            await().atMost(WAIT).until(() -> inbox.node(sonnet).received() == 2 && inbox.node(haiku).received() == 1);
            assertThat(inbox.node(sonnet).latest()).extracting(PrewarmCommand::sessionHash)
                    .containsExactly("sess-a", "sess-b");
            assertThat(inbox.node(sonnet).latest().get(0).blockHashes()).containsExactly(11L, 12L);

            // When junk arrives for the haiku node, followed on the same partition by a good command
            kafka.send(Topics.CACHE_PREWARM, haiku, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.CACHE_PREWARM, prewarm(haiku, "sess-d", List.of(41L)));

            // Then the consumer keeps going, and the junk is on the dead-letter topic with its reason
            await().atMost(WAIT).until(() -> inbox.node(haiku).received() == 2);
            assertThat(inbox.node(haiku).latest()).extracting(PrewarmCommand::sessionHash)
                    .containsExactly("sess-c", "sess-d");
            String dlq = Topics.deadLetterTopic(Topics.CACHE_PREWARM, Topics.SIMULATOR);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .anySatisfy(record -> {
                        assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(haiku);
                    }));

            // And the admin endpoint, health and metrics show it
            assertThat(service.get("/admin/prewarms").body())
                    .contains("\"" + sonnet + "\":{\"received\":2")
                    .contains("\"sessionHash\":\"sess-d\"");
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            assertThat(service.get("/actuator/prometheus").body())
                    .contains("zerolayer_events_rejected_total{reason=\"malformed\"");
        }
    }

    static PrewarmCommand prewarm(String node, String session, List<Long> blocks) {
        return new PrewarmCommand(UUID.randomUUID().toString(), Instant.now(), 1, node, session, blocks,
                "3 similar prompts");
    }
}
