package dev.zerolayer.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.simulator.fleet.Fleet;
import dev.zerolayer.simulator.node.PromptTokenizer;
import dev.zerolayer.simulator.node.SimulatedNode;
import dev.zerolayer.simulator.prewarm.PrewarmInbox;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.core.env.Environment;

/**
 * node-simulator against the real broker: its nodes register and sample on {@code telemetry.samples.v1}, report their
 * KV cache on {@code cache.kv-events.v1} (served prompts, prewarm commands, crashes), and prewarm commands are
 * recorded per node with poison dead-lettered. Its admin API binds loopback by default and its mutating endpoints need
 * the admin token; its actuator shows health and prometheus only.
 */
@ExtendWith(SharedKafka.class)
class SimulatorServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOKEN = "sim-it-" + UUID.randomUUID();
    private static final List<String> HIDDEN_ACTUATORS = List.of("/actuator/env", "/actuator/beans",
            "/actuator/configprops", "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers",
            "/actuator/mappings", "/actuator/shutdown");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static RunningService service;
    private static KafkaTestClient kafka;

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @BeforeAll
    static void start() {
        service = RunningService.start(SimulatorApplication.class, servers(),
                "zerolayer.admin-token=" + TOKEN,
                "zerolayer.simulator.base-port=0",
                "zerolayer.simulator.latency=false",
                "zerolayer.simulator.clusters[0].name=haiku-l4",
                "zerolayer.simulator.clusters[0].tier=haiku",
                "zerolayer.simulator.clusters[0].nodes=2",
                "zerolayer.simulator.clusters[0].profile=L4x2",
                "zerolayer.simulator.clusters[0].protocols=anthropic,openai");
        kafka = new KafkaTestClient(servers());
    }

    @AfterAll
    static void stop() {
        kafka.close();
        service.close();
    }

    @Test
    void nodesRegisterSampleAndReportTheirKvCacheThroughTheBroker() throws Exception {
        Fleet fleet = service.bean(Fleet.class);
        SimulatedNode anthropic = fleet.node("haiku-l4-0").orElseThrow();
        SimulatedNode openAi = fleet.node("haiku-l4-1").orElseThrow();

        // Then both nodes register and keep sampling on telemetry.samples.v1, keyed by node id
        await().atMost(WAIT).untilAsserted(() -> {
            List<NodeTelemetry> telemetry = telemetry();
            for (SimulatedNode node : List.of(anthropic, openAi)) {
                assertThat(telemetry).filteredOn(t -> t.nodeId().equals(node.id()))
                        .anySatisfy(t -> assertThat(t).isInstanceOf(NodeRegistration.class))
                        .filteredOn(TelemetrySample.class::isInstance).hasSizeGreaterThan(3);
            }
        });
        NodeRegistration registration = telemetry().stream().filter(NodeRegistration.class::isInstance)
                .map(NodeRegistration.class::cast).filter(r -> r.nodeId().equals("haiku-l4-1")).findFirst()
                .orElseThrow();
        assertThat(registration.upstreamBaseUrl()).isEqualTo("http://127.0.0.1:" + openAi.port());
        assertThat(registration.protocol()).isEqualTo(UpstreamProtocol.OPENAI);
        assertThat(registration.tier()).isEqualTo("haiku");
        assertThat(registration.cluster()).isEqualTo("haiku-l4");
        assertThat(registration.hardwareProfile()).isEqualTo("L4x2");

        // When a prompt of several blocks is served, its chained block hashes are stored and reported
        String prompt = "Route me to the node that already holds my prefix, please. ".repeat(6);
        HttpResponse<String> served = post(anthropic.baseUrl() + "/v1/messages", "{\"model\":\"claude-haiku-4-5\","
                + "\"max_tokens\":4,\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}");
        assertThat(served.statusCode()).isEqualTo(200);
        int[] ids = PromptTokenizer.shared().tokens(List.of(prompt), 1).ids();
        Long[] chain = Arrays.stream(new FastBlockHasher(16, 0).hashChain(ids)).boxed().toArray(Long[]::new);
        assertThat(chain).hasSizeGreaterThan(3);
        await().atMost(WAIT).untilAsserted(() -> assertThat(kvEvents("haiku-l4-0"))
                .anySatisfy(event -> {
                    assertThat(event.type()).isEqualTo(KvEventType.BLOCK_STORED);
                    assertThat(event.blockHashes()).containsExactly(chain);
                    assertThat(event.parentBlockHash()).isNull();
                    assertThat(event.blockSize()).isEqualTo(16);
                }));

        // When the cache service asks the OpenAI node to prewarm two blocks, it stores and reports them
        kafka.publish(Topics.CACHE_PREWARM, prewarm("haiku-l4-1", "sess-it", List.of(101L, 102L)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(kvEvents("haiku-l4-1")).anySatisfy(event -> {
            assertThat(event.type()).isEqualTo(KvEventType.BLOCK_STORED);
            assertThat(event.blockHashes()).containsExactly(101L, 102L);
        }));
        assertThat(openAi.kvCache().contains(101L)).isTrue();

        // When that node crashes through the admin API, it reports its cache cleared, with a rising sequence
        HttpResponse<String> crash = send("POST", "/admin/nodes/haiku-l4-1/faults",
                "{\"type\":\"crash\",\"durationMs\":300}", "Bearer " + TOKEN);
        assertThat(crash.statusCode()).isEqualTo(201);
        await().atMost(WAIT).untilAsserted(() -> {
            List<KvCacheEvent> events = kvEvents("haiku-l4-1");
            assertThat(events).extracting(KvCacheEvent::type).endsWith(KvEventType.ALL_BLOCKS_CLEARED,
                    KvEventType.ALL_BLOCKS_CLEARED);
            assertThat(events).extracting(KvCacheEvent::sequence).isSorted().doesNotHaveDuplicates();
        });
        assertThat(service.get("/admin/nodes").body()).contains("\"id\":\"haiku-l4-0\"")
                .contains("\"state\":\"serving\"");
    }

    @Test
    void recordsPrewarmCommandsPerNodeAndDeadLettersPoisonWithoutStopping() {
        String sonnet = "sonnet-" + UUID.randomUUID();
        String haiku = "haiku-" + UUID.randomUUID();
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

    @Test
    void theFaultApiBindsLoopbackByDefaultAndEveryMutatingEndpointNeedsTheAdminToken() throws Exception {
        // Given the default configuration (no SIMULATOR_ADDRESS): the admin API listens on loopback only
        assertThat(service.bean(Environment.class).getProperty("server.address")).isEqualTo("127.0.0.1");
        assertThat(service.bean(Environment.class).getProperty("zerolayer.simulator.bind-address"))
                .isEqualTo("127.0.0.1");
        int port = Integer.parseInt(service.bean(Environment.class).getProperty("local.server.port"));
        SimulatedNode node = service.bean(Fleet.class).node("haiku-l4-0").orElseThrow();
        Optional<InetAddress> external = nonLoopbackAddress();
        if (external.isPresent()) { // nothing to try on a machine without a non-loopback interface
            for (int closed : List.of(port, node.port())) {
                try (Socket socket = new Socket()) {
                    assertThatThrownBy(() -> socket.connect(new InetSocketAddress(external.get(), closed), 2_000))
                            .as("port %d must not answer on %s", closed, external.get()).isInstanceOf(IOException.class);
                }
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000); // but on loopback
            }
        }
        String crash = "{\"type\":\"sm_saturation\",\"durationMs\":60000}";

        // When faults are posted or cleared without the token, with a wrong one, or with another scheme
        for (String path : List.of("/admin/nodes/haiku-l4-0/faults", "/admin/nodes/no-such-node/faults")) {
            assertError(send("POST", path, crash, null), 401, "authentication_error");
            assertError(send("POST", path, crash, "Basic " + TOKEN), 401, "authentication_error");
            assertError(send("POST", path, crash, "Bearer " + TOKEN + "-wrong"), 403, "permission_error");
            assertError(send("DELETE", path, null, null), 401, "authentication_error");
            assertError(send("DELETE", path, null, "Bearer wrong"), 403, "permission_error");
        }
        // Then nothing changed
        assertThat(node.faults().list()).isEmpty();

        // When the right token is sent, the fault is set and then cleared
        HttpResponse<String> injected = send("POST", "/admin/nodes/haiku-l4-0/faults", crash, "Bearer " + TOKEN);
        assertThat(injected.statusCode()).as(injected.body()).isEqualTo(201);
        assertThat(injected.body()).contains("\"by\":\"admin:").doesNotContain(TOKEN);
        assertThat(node.faults().list()).hasSize(1);
        assertError(send("DELETE", "/admin/nodes/haiku-l4-0/faults", null, null), 401, "authentication_error");
        assertThat(node.faults().list()).hasSize(1);
        HttpResponse<String> cleared = send("DELETE", "/admin/nodes/haiku-l4-0/faults", null, "Bearer " + TOKEN);
        assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
        assertThat(node.faults().list()).isEmpty();

        // And no other mutating endpoint exists
        for (String method : List.of("POST", "PUT", "DELETE")) {
            for (String path : List.of("/admin/nodes", "/admin/nodes/haiku-l4-0", "/admin/prewarms")) {
                assertThat(send(method, path, "{}", "Bearer " + TOKEN).statusCode()).as(method + " " + path)
                        .isIn(404, 405);
            }
        }
        assertThat(send("PUT", "/admin/nodes/haiku-l4-0/faults", crash, "Bearer " + TOKEN).statusCode())
                .isIn(404, 405);

        // And the actuator shows health and prometheus only
        assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(service.get("/actuator/prometheus").statusCode()).isEqualTo(200);
        for (String path : HIDDEN_ACTUATORS) {
            assertThat(service.get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(send("POST", "/actuator/shutdown", "", null).statusCode()).isEqualTo(404);
        assertThat(service.isActive()).isTrue();
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }

    private static void assertError(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        tools.jackson.databind.JsonNode body = EventCodec.mapper().readTree(response.body());
        assertThat(body.path("type").asString()).isEqualTo("error");
        assertThat(body.path("error").path("type").asString()).isEqualTo(type);
        assertThat(body.path("error").path("message").asString()).isNotBlank();
    }

    private static HttpResponse<String> send(String method, String path, String json, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (authorization != null) {
            request.header("authorization", authorization);
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<NodeTelemetry> telemetry() {
        return kafka.readAll(Topics.TELEMETRY_SAMPLES).stream()
                .map(record -> {
                    NodeTelemetry event = EventCodec.decode(record.value(), NodeTelemetry.class);
                    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(event.nodeId());
                    return event;
                })
                .toList();
    }

    private static List<KvCacheEvent> kvEvents(String nodeId) {
        return kafka.readAll(Topics.CACHE_KV_EVENTS).stream()
                .filter(record -> new String(record.key(), StandardCharsets.UTF_8).equals(nodeId))
                .map(ConsumerRecord::value)
                .map(value -> EventCodec.decode(value, KvCacheEvent.class))
                .toList();
    }

    private static HttpResponse<String> post(String url, String json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static PrewarmCommand prewarm(String node, String session, List<Long> blocks) {
        return new PrewarmCommand(UUID.randomUUID().toString(), Instant.now(), 1, node, session, blocks,
                "3 similar prompts");
    }
}
