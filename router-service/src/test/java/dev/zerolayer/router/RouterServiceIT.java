package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * router-service against the real broker: keeps its five compacted views current (tombstones remove keys), lists the
 * models of the latest policy, dead-letters poison, and rebuilds every view from the beginning after a restart.
 */
@ExtendWith(SharedKafka.class)
class RouterServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    @SuppressWarnings("unchecked")
    void keepsEveryViewCurrentListsThePolicyModelsAndDeadLettersPoisonWithoutStopping() {
        String node = "haiku-" + UUID.randomUUID();
        String session = "sess-" + UUID.randomUUID();
        long block = ThreadLocalRandom.current().nextLong();
        long removed = blockInSamePartition(block);
        long base = System.currentTimeMillis();
        String alias = "fast-" + UUID.randomUUID();
        try (RunningService service = RunningService.start(RouterApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            CompactedView<NodeHealth> health = service.bean("nodeHealth", CompactedView.class);
            CompactedView<ComplexityModel> model = service.bean("complexityModel", CompactedView.class);
            CompactedView<KvIndexEntry> kvIndex = service.bean("kvIndex", CompactedView.class);
            CompactedView<SessionEntry> sessions = service.bean("sessions", CompactedView.class);
            CompactedView<FallbackPolicy> policy = service.bean("fallbackPolicy", CompactedView.class);

            // Given a running router
            // When every state topic it reads gets a record
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(node, NodeState.HEALTHY));
            kafka.publish(Topics.COMPLEXITY_MODEL, model("m-" + base));
            kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(removed, node));
            kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(block, node));
            kafka.publish(Topics.CACHE_SESSIONS, session(session, node));
            kafka.publish(Topics.FALLBACK_POLICY, policy(base, alias));

            // Then each view holds it
            await().atMost(WAIT).until(() -> health.get(node).isPresent()
                    && model.get(ComplexityModel.KEY).map(m -> m.modelVersion().equals("m-" + base)).orElse(false)
                    && kvIndex.get(key(block)).isPresent() && kvIndex.get(key(removed)).isPresent()
                    && sessions.get(session).isPresent()
                    && policy.get(FallbackPolicy.KEY).map(p -> p.version() == base).orElse(false));
            assertThat(kvIndex.get(key(block))).hasValueSatisfying(e -> assertThat(e.nodes()).containsExactly(node));

            // And the models listed are the latest policy's tiers and aliases, in Anthropic's shape for a client
            // naming the Messages API version, in OpenAI's for others
            String models = service.get("/v1/models", "anthropic-version", "2023-06-01").body();
            assertThat(models)
                    .contains("{\"type\":\"model\",\"id\":\"" + alias + "\",\"display_name\":\"Mini tier (" + alias
                            + ")\"")
                    .contains("\"tier\":\"mini\"")
                    .contains("\"id\":\"claude-haiku-4-5\"")
                    .doesNotContain("claude-opus-4-1")
                    .contains("\"has_more\":false");
            assertThat(service.get("/v1/models").body()).startsWith("{\"object\":\"list\"")
                    .contains("{\"id\":\"" + alias + "\",\"object\":\"model\",\"created\":")
                    .contains("\"owned_by\":\"zerolayer\"");

            // When a block's index entry is deleted (a tombstone), then the other block (same partition) moves
            kafka.send(Topics.CACHE_KV_INDEX, key(removed), null);
            kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(block, node, "haiku-2"));

            // Then the deleted key is gone from the view and the other one is updated
            await().atMost(WAIT).until(() -> kvIndex.get(key(block)).map(e -> e.nodes().size() == 2).orElse(false));
            assertThat(kvIndex.get(key(removed))).isEmpty();

            // When junk arrives on the sessions topic, followed under the same key by a good entry
            String poisoned = "sess-" + UUID.randomUUID();
            kafka.send(Topics.CACHE_SESSIONS, poisoned, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.CACHE_SESSIONS, session(poisoned, node));

            // Then the view keeps going, and the junk is on the dead-letter topic with its reason
            await().atMost(WAIT).until(() -> sessions.get(poisoned).isPresent());
            String dlq = Topics.deadLetterTopic(Topics.CACHE_SESSIONS, Topics.ROUTER);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .anySatisfy(record -> {
                        assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(poisoned);
                    }));

            // And health shows every view, metrics count the junk
            var healthResponse = service.get("/actuator/health");
            assertThat(healthResponse.statusCode()).isEqualTo(200);
            assertThat(healthResponse.body()).contains(Topics.TELEMETRY_NODE_HEALTH, Topics.COMPLEXITY_MODEL,
                    Topics.CACHE_KV_INDEX, Topics.CACHE_SESSIONS, Topics.FALLBACK_POLICY);
            assertThat(service.get("/actuator/prometheus").body())
                    .contains("zerolayer_events_rejected_total{reason=\"malformed\"");
            // the shared broker outlives this test: its node may take part in no other test's decision
            kafka.send(Topics.TELEMETRY_NODE_HEALTH, node, null);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void rebuildsEveryViewWithTheLatestValuePerKeyFromTheBeginningAfterARestart() {
        String changing = "sonnet-" + UUID.randomUUID();
        String steady = "sonnet-" + UUID.randomUUID();
        String changingSession = "sess-" + UUID.randomUUID();
        String steadySession = "sess-" + UUID.randomUUID();
        long block = ThreadLocalRandom.current().nextLong();
        long deleted = blockInSamePartition(block);
        long base = System.currentTimeMillis();
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            RunningService first = RunningService.start(RouterApplication.class, servers());
            try {
                // Given a running router that read two values of each key of every state topic
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.WARMING));
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.HEALTHY));
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(steady, NodeState.HEALTHY));
                kafka.publish(Topics.COMPLEXITY_MODEL, model("m-" + base + "-1"));
                kafka.publish(Topics.COMPLEXITY_MODEL, model("m-" + base + "-2"));
                kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(block, "a"));
                kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(block, "a", "b"));
                kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(deleted, "a"));
                kafka.publish(Topics.CACHE_SESSIONS, session(changingSession, "a"));
                kafka.publish(Topics.CACHE_SESSIONS, session(changingSession, "b"));
                kafka.publish(Topics.CACHE_SESSIONS, session(steadySession, "a"));
                kafka.publish(Topics.FALLBACK_POLICY, policy(base + 1, "x"));
                kafka.publish(Topics.FALLBACK_POLICY, policy(base + 2, "x"));
                Views views = Views.of(first);
                await().atMost(WAIT).until(() -> views.health.get(steady).isPresent()
                        && views.health.get(changing).map(h -> h.state() == NodeState.HEALTHY).orElse(false)
                        && views.model.get(ComplexityModel.KEY)
                                .map(m -> m.modelVersion().equals("m-" + base + "-2")).orElse(false)
                        && views.kvIndex.get(key(deleted)).isPresent()
                        && views.kvIndex.get(key(block)).map(e -> e.nodes().size() == 2).orElse(false)
                        && views.sessions.get(steadySession).isPresent()
                        && views.sessions.get(changingSession).map(s -> s.stickyNode().equals("b")).orElse(false)
                        && views.policy.get(FallbackPolicy.KEY).map(p -> p.version() == base + 2).orElse(false));
            } finally {
                first.close();
            }

            // When, while it is stopped, each changing key gets a newer value and a block is deleted (same partition,
            // before its neighbour's update), and it starts again
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(changing, NodeState.DOWN));
            kafka.publish(Topics.COMPLEXITY_MODEL, model("m-" + base + "-3"));
            kafka.send(Topics.CACHE_KV_INDEX, key(deleted), null);
            kafka.publish(Topics.CACHE_KV_INDEX, kvEntry(block, "c"));
            kafka.publish(Topics.CACHE_SESSIONS, session(changingSession, "c"));
            kafka.publish(Topics.FALLBACK_POLICY, policy(base + 3, "x"));
            try (RunningService second = RunningService.start(RouterApplication.class, servers())) {
                Views views = Views.of(second);

                // Then its fresh views hold the latest value per key, read from the beginning
                await().atMost(WAIT).until(() ->
                        views.health.get(changing).map(h -> h.state() == NodeState.DOWN).orElse(false)
                        && views.model.get(ComplexityModel.KEY)
                                .map(m -> m.modelVersion().equals("m-" + base + "-3")).orElse(false)
                        && views.kvIndex.get(key(block)).map(e -> e.nodes().equals(List.of("c"))).orElse(false)
                        && views.sessions.get(changingSession).map(s -> s.stickyNode().equals("c")).orElse(false)
                        && views.policy.get(FallbackPolicy.KEY).map(p -> p.version() == base + 3).orElse(false));
                assertThat(views.health.get(steady)).isPresent();
                assertThat(views.sessions.get(steadySession))
                        .hasValueSatisfying(s -> assertThat(s.stickyNode()).isEqualTo("a"));
                assertThat(views.kvIndex.get(key(deleted))).isEmpty();
                assertThat(views.model.size()).isEqualTo(1);
                assertThat(views.policy.size()).isEqualTo(1);
                assertThat(second.get("/v1/models").body()).contains("\"id\":\"x\"");
            }
            kafka.send(Topics.TELEMETRY_NODE_HEALTH, changing, null);
            kafka.send(Topics.TELEMETRY_NODE_HEALTH, steady, null);
        }
    }

    /** The router's five views in one running service. */
    private record Views(CompactedView<NodeHealth> health, CompactedView<ComplexityModel> model,
            CompactedView<KvIndexEntry> kvIndex, CompactedView<SessionEntry> sessions,
            CompactedView<FallbackPolicy> policy) {

        @SuppressWarnings("unchecked")
        static Views of(RunningService service) {
            return new Views(service.bean("nodeHealth", CompactedView.class),
                    service.bean("complexityModel", CompactedView.class), service.bean("kvIndex", CompactedView.class),
                    service.bean("sessions", CompactedView.class), service.bean("fallbackPolicy", CompactedView.class));
        }
    }

    /** Another block hash whose record key lands on the same partition of cache.kv-index.v1 as the given one's. */
    static long blockInSamePartition(long block) {
        int partitions = Topics.spec(Topics.CACHE_KV_INDEX).partitions();
        int target = partition(block, partitions);
        long other;
        do {
            other = ThreadLocalRandom.current().nextLong();
        } while (other == block || partition(other, partitions) != target);
        return other;
    }

    /** The partition Kafka's default partitioner picks for a keyed record. */
    private static int partition(long block, int partitions) {
        return Utils.toPositive(Utils.murmur2(key(block).getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    static String key(long block) {
        return Long.toUnsignedString(block);
    }

    static NodeHealth health(String node, NodeState state) {
        NodeRegistration registration = NodeRegistration.of(node, "sonnet", "sonnet-a100-40g", null,
                "http://127.0.0.1:18101", UpstreamProtocol.ANTHROPIC, "claude-sonnet-4-5", 16, "4xA100-40G");
        return new NodeHealth(UUID.randomUUID().toString(), Instant.now(), 1, node, registration, state,
                state.routable() ? 0.9 : 0.1, List.of(), null, 0.2, 0, 0.3, null, List.of(), 50, false, 1);
    }

    static ComplexityModel model(String version) {
        return new ComplexityModel(UUID.randomUUID().toString(), Instant.now(), 1, version, "cl100k_base", -2.1,
                Map.of("code", 1.4, "math", 1.2));
    }

    static KvIndexEntry kvEntry(long block, String... nodes) {
        return new KvIndexEntry(UUID.randomUUID().toString(), Instant.now(), 1, block, null, List.of(nodes));
    }

    static SessionEntry session(String session, String stickyNode) {
        return new SessionEntry(UUID.randomUUID().toString(), Instant.now(), 1, session, stickyNode,
                List.of(List.of(1L, 2L)), 1);
    }

    /** A policy whose first tier is the default haiku tier and whose second is a "mini" tier serving one alias. */
    static FallbackPolicy policy(long version, String alias) {
        PolicyDocument defaults = PolicyDocument.defaults();
        PolicyDocument document = new PolicyDocument(
                List.of(defaults.tiers().get(0), new TierSpec("mini", List.of(alias), List.of("mini-cluster"))),
                defaults.tierTable(), defaults.chains(), defaults.standbyClusters(), defaults.thresholds(),
                defaults.limits(), defaults.resilience(), defaults.apiKeyOverrides());
        return new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1, version, "test", document);
    }
}
