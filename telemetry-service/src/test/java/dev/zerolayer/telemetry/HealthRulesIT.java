package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The health rules end to end through the real broker: samples in on {@code telemetry.samples.v1}, health records out on
 * {@code telemetry.node-health.v1}; the warm-up probe goes to a real HTTP upstream.
 */
@ExtendWith(SharedKafka.class)
class HealthRulesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static RunningService service;
    private static KafkaTestClient kafka;
    private static HttpServer upstream;
    private static final AtomicInteger probes = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        upstream.createContext("/v1/messages", exchange -> {
            probes.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = "{\"type\":\"message\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        String servers = SharedKafka.broker().bootstrapServers();
        service = RunningService.start(TelemetryApplication.class, servers,
                "zerolayer.telemetry.heartbeat=500ms");
        kafka = new KafkaTestClient(servers);
    }

    @AfterAll
    static void stop() {
        kafka.close();
        service.close();
        upstream.stop(0);
    }

    private static String register(String tier) {
        String node = tier + "-" + UUID.randomUUID();
        kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(node, tier, tier + "-cluster-" + node, null,
                "http://127.0.0.1:" + upstream.getAddress().getPort(), UpstreamProtocol.ANTHROPIC, "m", 8, "test"));
        return node;
    }

    private static TelemetrySample sample(String node, Instant at, double sm, boolean warming) {
        return new TelemetrySample(UUID.randomUUID().toString(), at, 1, node, sm, 1e9, 1e9, 0.1, 20_000, 20_000, 0.05,
                2, 0, 0.2, warming, 0);
    }

    /** The latest record of a node on the health topic, as a router would read it. */
    private static Optional<NodeHealth> published(String node) {
        return kafka.readAll(Topics.TELEMETRY_NODE_HEALTH).stream()
                .filter(r -> node.equals(new String(r.key(), StandardCharsets.UTF_8)))
                .reduce((first, second) -> second)
                .map(r -> EventCodec.decode(r.value(), NodeHealth.class));
    }

    @Test
    void smAboveNinetyFiveForHalfASecondPublishesUnavailableAndRecoveryPublishesHealthy() {
        // Given a node serving normally
        String node = register("sonnet");
        Instant t0 = Instant.now();
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, t0, 0.50, false));
        await().atMost(WAIT).until(() -> published(node).map(h -> h.state() == NodeState.HEALTHY).orElse(false));

        // When its SMs stay above 95 % for 500 ms
        for (int ms = 100; ms <= 600; ms += 100) {
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, t0.plusMillis(ms), 0.97, false));
        }

        // Then the topic says UNAVAILABLE with the reason
        await().atMost(WAIT).untilAsserted(() -> {
            NodeHealth health = published(node).orElseThrow();
            assertThat(health.state()).isEqualTo(NodeState.UNAVAILABLE);
            assertThat(health.reasons()).anySatisfy(r -> assertThat(r).contains("sm_active above 0.95"));
        });

        // When they stay below 90 % for 500 ms, then it is HEALTHY again
        for (int ms = 700; ms <= 1_200; ms += 100) {
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, t0.plusMillis(ms), 0.40, false));
        }
        await().atMost(WAIT).until(() -> published(node).map(h -> h.state() == NodeState.HEALTHY).orElse(false));
    }

    @Test
    void aWarmUpIsWarmingUntilAGoodProbeAndTheHistorySurvivesARestart() {
        // Given a policy whose first warm-up is predicted to take 1.5 s
        long version = System.currentTimeMillis() * 1_000;
        Thresholds defaults = Thresholds.defaults();
        Thresholds quickWarmup = defaults.toBuilder().warmupDefaultMs(1_500).build();
        PolicyDocument base = PolicyDocument.defaults();
        kafka.publish(Topics.FALLBACK_POLICY, new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1,
                version, "test", new PolicyDocument(base.tiers(), base.tierTable(), base.chains(),
                        base.standbyClusters(), quickWarmup, base.limits(), base.resilience(), Map.of())));
        await().atMost(WAIT).until(() -> service.bean(HealthTracker.class).policyVersion() == version);

        // When a node starts a CUDA-graph warm-up
        String node = register("opus");
        int probesBefore = probes.get();
        Instant start = Instant.now();
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, start, 0.10, true));

        // Then it is WARMING with a predicted ready time and no traffic weight
        await().atMost(WAIT).untilAsserted(() -> {
            NodeHealth health = published(node).orElseThrow();
            assertThat(health.state()).isEqualTo(NodeState.WARMING);
            assertThat(health.predictedReadyAt()).isEqualTo(start.plusMillis(1_500));
            assertThat(health.score()).isZero();
        });

        // And the probe (sent 50 ms before the predicted time) reaches the node, and the good probe makes it HEALTHY
        await().atMost(WAIT).untilAsserted(() -> {
            NodeHealth health = published(node).orElseThrow();
            assertThat(health.state()).isEqualTo(NodeState.HEALTHY);
            assertThat(health.warmupDurationsMs()).hasSize(1);
        });
        assertThat(probes.get()).isGreaterThan(probesBefore);
        long learned = published(node).orElseThrow().warmupDurationsMs().get(0);

        // When the service restarts and the node warms up again without registering anew
        service.close();
        service = RunningService.start(TelemetryApplication.class, SharedKafka.broker().bootstrapServers(),
                "zerolayer.telemetry.heartbeat=500ms");
        Instant again = Instant.now();
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, again, 0.10, true));
            // Then the prediction comes from the warm-up it learned before the restart (the probe may already have
            // ended this warm-up, so look for the WARMING record among everything published for the node)
            assertThat(kafka.readAll(Topics.TELEMETRY_NODE_HEALTH).stream()
                    .filter(r -> node.equals(new String(r.key(), StandardCharsets.UTF_8)))
                    .map(r -> EventCodec.decode(r.value(), NodeHealth.class))
                    .filter(h -> h.state() == NodeState.WARMING))
                    .anySatisfy(h -> assertThat(h.predictedReadyAt()).isEqualTo(again.plusMillis(learned)));
        });
    }

    @Test
    void aRestartKeepsEveryNodesStateAndPutsNoOtherStateOnTheTopic() {
        // Given a serving node, a saturated node and a node that never sent a sample
        String serving = register("sonnet");
        String saturated = register("haiku");
        String silent = register("opus");
        Instant t0 = Instant.now();
        for (int ms = 0; ms <= 600; ms += 100) {
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(serving, t0.plusMillis(ms), 0.50, false));
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(saturated, t0.plusMillis(ms), 0.97, false));
        }
        await().atMost(WAIT).until(() -> published(serving).map(h -> h.state() == NodeState.HEALTHY).orElse(false)
                && published(saturated).map(h -> h.state() == NodeState.UNAVAILABLE).orElse(false)
                && published(silent).map(h -> h.state() == NodeState.DOWN).orElse(false));
        Map<String, NodeHealth> before = Map.of(serving, published(serving).orElseThrow(), saturated,
                published(saturated).orElseThrow());

        // When the service is stopped and started again, and the two nodes keep sampling as before
        service.close();
        NodeHealth silentBefore = published(silent).orElseThrow();
        Instant restart = Instant.now();
        service = RunningService.start(TelemetryApplication.class, SharedKafka.broker().bootstrapServers(),
                "zerolayer.telemetry.heartbeat=500ms");
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            Instant t = Instant.now();
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(serving, t, 0.50, false));
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(saturated, t, 0.97, false));
            // Then both are published again (heartbeats), each only ever with the state and registration it had
            for (Map.Entry<String, NodeHealth> node : before.entrySet()) {
                List<NodeHealth> after = kafka.readAll(Topics.TELEMETRY_NODE_HEALTH).stream()
                        .filter(r -> node.getKey().equals(new String(r.key(), StandardCharsets.UTF_8)))
                        .map(r -> EventCodec.decode(r.value(), NodeHealth.class))
                        .filter(h -> h.occurredAt().isAfter(restart)).toList();
                assertThat(after).as("records of %s after the restart", node.getKey()).hasSizeGreaterThanOrEqualTo(2)
                        .allSatisfy(h -> {
                            assertThat(h.state()).isEqualTo(node.getValue().state());
                            assertThat(h.registration()).isEqualTo(node.getValue().registration());
                        });
            }
        });
        // And the node the service has not heard of since keeps its last record: nothing lost, nothing rewritten
        assertThat(published(silent).orElseThrow().eventId()).isEqualTo(silentBefore.eventId());
    }

    @Test
    void aNodeThatStopsSendingSamplesGoesDown() {
        String node = register("haiku");
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, Instant.now(), 0.30, false));
        await().atMost(WAIT).until(() -> published(node).map(h -> h.state() == NodeState.HEALTHY).orElse(false));

        // no more samples: after the 3 s staleness limit the node is DOWN
        await().atMost(WAIT).untilAsserted(() -> {
            NodeHealth health = published(node).orElseThrow();
            assertThat(health.state()).isEqualTo(NodeState.DOWN);
            assertThat(health.reasons()).anySatisfy(r -> assertThat(r).startsWith("no sample for over"));
        });
    }

    @Test
    void badSamplesNeverPoisonANodesState() {
        String node = register("haiku");
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, Instant.now(), 0.30, false));
        await().atMost(WAIT).until(() -> published(node).map(h -> h.state() == NodeState.HEALTHY).orElse(false));

        // far-past, far-future, NaN and out-of-range samples
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, Instant.now().minusSeconds(3_600), 0.99, false));
        kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, Instant.now().plusSeconds(3_600), 0.99, false));
        String valid = EventCodec.encodeToString(sample(node, Instant.now(), 0.30, false));
        kafka.send(Topics.TELEMETRY_SAMPLES, node, valid.replace("\"smActive\":0.3", "\"smActive\":\"NaN\"")
                .getBytes(StandardCharsets.UTF_8));
        kafka.send(Topics.TELEMETRY_SAMPLES, node, valid.replace("\"smActive\":0.3", "\"smActive\":7.5")
                .getBytes(StandardCharsets.UTF_8));
        kafka.publish(Topics.TELEMETRY_SAMPLES, TelemetrySample.now(node, 0.30, 1e9, 1e9, 0.1, 1, 1, 0.05, 2, 5, 0.2,
                false, 0));

        // the last good sample is applied, none of the bad ones were, and all four are dead-lettered with reasons
        await().atMost(WAIT).until(() -> published(node).map(h -> h.queueDepth() == 5).orElse(false));
        assertThat(published(node).orElseThrow().state()).isEqualTo(NodeState.HEALTHY);
        String dlq = Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, Topics.TELEMETRY);
        await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq).stream()
                .filter(r -> node.equals(new String(r.key(), StandardCharsets.UTF_8)))
                .map(r -> KafkaTestClient.header(r, "x-exception-message")).toList())
                .anySatisfy(m -> assertThat(m).contains("timestamp out of range"))
                .anySatisfy(m -> assertThat(m).contains("smActive must be a number in [0,1]"))
                .hasSizeGreaterThanOrEqualTo(4));
    }

    @Test
    void registrationsOutsideTheAllowListAreRefused() {
        String node = "evil-" + UUID.randomUUID();
        kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(node, "haiku", "c", null,
                "http://169.254.169.254/latest", UpstreamProtocol.OPENAI, "m", 4, "x"));
        String unknownTier = "odd-" + UUID.randomUUID();
        kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(unknownTier, "gigantic", "c", null,
                "http://127.0.0.1:9", UpstreamProtocol.OPENAI, "m", 4, "x"));
        String dlq = Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, Topics.TELEMETRY);
        await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                .extracting(r -> KafkaTestClient.header(r, "x-exception-message"))
                .anySatisfy(m -> assertThat(m).contains("upstream host not on the allow-list"))
                .anySatisfy(m -> assertThat(m).contains("unknown tier 'gigantic'")));
        assertThat(service.get("/v1/nodes/" + node).statusCode()).isEqualTo(404);
        assertThat(List.of(service.get("/v1/nodes").body())).noneSatisfy(b -> assertThat(b).contains(node));
    }
}
