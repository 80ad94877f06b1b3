package dev.zerolayer.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.blocks.NodeBlocks;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * cache-service against the real broker: tracks each node's blocks (dropping duplicates), counts decisions per node,
 * holds node health, dead-letters poison, and rebuilds its node-health view after a restart.
 */
@ExtendWith(SharedKafka.class)
class CacheServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    @SuppressWarnings("unchecked")
    void readsKvEventsDecisionsAndHealthAndDeadLettersPoisonWithoutStopping() {
        String haiku = "haiku-" + UUID.randomUUID();
        String sonnet = "sonnet-" + UUID.randomUUID();
        try (RunningService service = RunningService.start(CacheApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            NodeBlocks blocks = service.bean(NodeBlocks.class);
            DecisionsPerNode decisions = service.bean(DecisionsPerNode.class);
            CompactedView<NodeHealth> health = service.bean("nodeHealth", CompactedView.class);

            // Given a node that stores three blocks, removes one, and whose two events are then delivered again
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(haiku, 1, KvEventType.BLOCK_STORED, 1L, 2L, 3L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(haiku, 2, KvEventType.BLOCK_REMOVED, 2L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(haiku, 2, KvEventType.BLOCK_STORED, 99L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(haiku, 1, KvEventType.BLOCK_STORED, 2L));
            // And a node that stores two blocks, clears everything, then stores one
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(sonnet, 5, KvEventType.BLOCK_STORED, 7L, 8L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(sonnet, 6, KvEventType.ALL_BLOCKS_CLEARED));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(sonnet, 7, KvEventType.BLOCK_STORED, 9L));

            // Then each node holds what its events left, the duplicates dropped
            await().atMost(WAIT).until(() -> blocks.summary().containsKey(sonnet)
                    && blocks.summary().get(sonnet).lastSequence() == 7 && blocks.summary().containsKey(haiku)
                    && blocks.summary().get(haiku).lastSequence() == 2 && blocks.duplicatesDropped() == 2);
            assertThat(blocks.blocks(haiku)).containsExactlyInAnyOrder(1L, 3L);
            assertThat(blocks.blocks(sonnet)).containsExactly(9L);

            // When the router sends two requests to the haiku node and one to the sonnet node
            kafka.publish(Topics.ROUTER_DECISIONS, decision(haiku));
            kafka.publish(Topics.ROUTER_DECISIONS, decision(haiku));
            kafka.publish(Topics.ROUTER_DECISIONS, decision(sonnet));
            // And telemetry says the haiku node degraded
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(haiku, NodeState.DEGRADED));

            // Then the decisions are counted per node and the health view holds the state
            await().atMost(WAIT).until(() -> decisions.decisions(haiku) == 2 && decisions.decisions(sonnet) == 1);
            await().atMost(WAIT).until(() -> health.get(haiku).map(h -> h.state() == NodeState.DEGRADED)
                    .orElse(false));

            // When junk arrives for the haiku node, followed on the same partition by a good event
            kafka.send(Topics.CACHE_KV_EVENTS, haiku, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(haiku, 3, KvEventType.BLOCK_STORED, 4L));

            // Then the consumer keeps going, and the junk is on the dead-letter topic with its reason
            await().atMost(WAIT).until(() -> blocks.blocks(haiku).contains(4L));
            assertThat(blocks.blocks(haiku)).containsExactlyInAnyOrder(1L, 3L, 4L);
            String dlq = Topics.deadLetterTopic(Topics.CACHE_KV_EVENTS, Topics.CACHE);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .anySatisfy(record -> {
                        assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(haiku);
                    }));

            // And the stats endpoint, health and metrics show it
            assertThat(service.get("/v1/cache/stats").body())
                    .contains("\"" + haiku
                            + "\":{\"blocks\":3,\"lastSequence\":3,\"decisions\":2,\"state\":\"DEGRADED\"}")
                    .contains("\"" + sonnet + "\":{\"blocks\":1,\"lastSequence\":7,\"decisions\":1,\"state\":null}")
                    .contains("\"totalBlocks\":" + blocks.totalBlocks())
                    .contains("\"duplicatesDropped\":2");
            assertThat(blocks.totalBlocks()).isGreaterThanOrEqualTo(4);
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            assertThat(service.get("/actuator/prometheus").body())
                    .contains("zerolayer_events_rejected_total{reason=\"malformed\"");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void rebuildsTheLatestNodeHealthFromTheBeginningAfterARestart() {
        String changing = "opus-" + UUID.randomUUID();
        String steady = "opus-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            RunningService first = RunningService.start(CacheApplication.class, servers());
            try {
                // Given two nodes' health read by a running service, one of them changing once
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.WARMING));
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(steady, NodeState.HEALTHY));
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.HEALTHY));
                CompactedView<NodeHealth> view = first.bean("nodeHealth", CompactedView.class);
                await().atMost(WAIT).until(() -> view.get(steady).isPresent()
                        && view.get(changing).map(h -> h.state() == NodeState.HEALTHY).orElse(false));
            } finally {
                first.close();
            }

            // When one node goes down while the service is stopped, and it starts again
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.DOWN));
            try (RunningService second = RunningService.start(CacheApplication.class, servers())) {
                CompactedView<NodeHealth> view = second.bean("nodeHealth", CompactedView.class);

                // Then its fresh view holds the latest value per key, read from the beginning
                await().atMost(WAIT).until(() -> view.get(changing).map(h -> h.state() == NodeState.DOWN)
                        .orElse(false));
                assertThat(view.get(steady))
                        .hasValueSatisfying(h -> assertThat(h.state()).isEqualTo(NodeState.HEALTHY));
            }
        }
    }

    static KvCacheEvent kv(String node, long sequence, KvEventType type, Long... hashes) {
        return new KvCacheEvent(UUID.randomUUID().toString(), Instant.now(), 1, node, sequence, type, List.of(hashes),
                null, 16);
    }

    static RoutingDecision decision(String node) {
        return new RoutingDecision(UUID.randomUUID().toString(), Instant.now(), 1, "req-" + UUID.randomUUID(), "s", "k",
                "anthropic", "claude-haiku-4-5", false, "haiku", "haiku-l4", node, List.of(node), 12, 0.1, "m1", 1,
                List.of("tier_table"), false, null, null, false, List.of(1L, 3L), 90, 20, 0.5, 100, 12, 30,
                DecisionStatus.OK, 200);
    }

    static NodeHealth health(String node, NodeState state) {
        NodeRegistration registration = NodeRegistration.of(node, "haiku", "haiku-l4", null, "http://127.0.0.1:18100",
                UpstreamProtocol.ANTHROPIC, "claude-haiku-4-5", 8, "2xL4");
        return new NodeHealth(UUID.randomUUID().toString(), Instant.now(), 1, node, registration, state,
                state.routable() ? 0.9 : 0.1, List.of(), null, 0.2, 0, 0.3, null, List.of(), 50, false, 1);
    }
}
