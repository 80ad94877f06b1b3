package dev.zerolayer.deploy.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.deploy.repo.ServiceConfig;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.KafkaClientSecurity;
import dev.zerolayer.platform.topics.ProvisionTopics;
import dev.zerolayer.platform.topics.TopicProvisioner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against a broker whose only client listener is SASL_PLAINTEXT (PLAIN), every service of the stack, given only that
 * listener's address and the SASL client settings the chart passes, starts, reads its topics and publishes: no Kafka
 * client of any service is built outside the shared security settings.
 */
class SecuredBrokerIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String ADMIN_TOKEN = "zla-secured-broker-it";
    private static final Map<String, String> APPLICATIONS = Map.of(
            "router-service", "dev.zerolayer.router.RouterApplication",
            "telemetry-service", "dev.zerolayer.telemetry.TelemetryApplication",
            "complexity-service", "dev.zerolayer.complexity.ComplexityApplication",
            "cache-service", "dev.zerolayer.cache.CacheApplication",
            "fallback-service", "dev.zerolayer.fallback.FallbackApplication",
            "node-simulator", "dev.zerolayer.simulator.SimulatorApplication",
            "console-service", "dev.zerolayer.console.ConsoleApplication");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final Map<String, RunningService> SERVICES = new LinkedHashMap<>();
    private static Path dataDir;
    private static KraftBroker broker;

    @BeforeAll
    static void startEverything() throws Exception {
        dataDir = Files.createTempDirectory("secured-broker-it");
        broker = KraftBroker.createSaslPlain(dataDir, "zerolayer", "zl-" + System.nanoTime()).start();
        // what the chart's topics Job does, with the same client settings
        try (Admin admin = Admin.create(secured(broker.clientProperties()))) {
            new TopicProvisioner(admin, (short) 1).ensure(ProvisionTopics.allWithDeadLetters());
        }
        // one after the other (Spring Boot's logging initialisation is not safe for parallel starts in one JVM)
        for (String module : ServiceConfig.MODULES) {
            SERVICES.put(module, start(module));
        }
    }

    /** A service given the secured listener and the binder's client settings, as the chart's environment does. */
    private static RunningService start(String module) throws ClassNotFoundException {
        Path config = Path.of(System.getProperty("zerolayer.services.dir", "target/services"), module,
                "BOOT-INF/classes/application.yml").toAbsolutePath();
        assertThat(config).as("unpacked by the dependency plugin").exists();
        // a policy history of its own: one left by an earlier run would already hold this run's change
        List<String> properties = new ArrayList<>(List.of("spring.config.location=file:" + config,
                "zerolayer.admin-token=" + ADMIN_TOKEN, "zerolayer.fallback.data-dir=" + dataDir.resolve("fallback")));
        // SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_<KEY> in the chart; the same property here
        broker.clientProperties().forEach((key, value) ->
                properties.add("spring.cloud.stream.kafka.binder.configuration." + key + "=" + value));
        if (module.equals("router-service")) {
            // the warm-up runs, shortened: seven services share this JVM's two cores
            properties.add("zerolayer.router.warm-up.requests=1000");
        }
        if (module.equals("node-simulator")) {
            // one latency-free haiku node on a free port (the default policy's haiku cluster)
            properties.addAll(List.of("zerolayer.simulator.base-port=0", "zerolayer.simulator.latency=false",
                    "zerolayer.simulator.clusters[0].name=haiku-l4", "zerolayer.simulator.clusters[0].tier=haiku",
                    "zerolayer.simulator.clusters[0].nodes=1", "zerolayer.simulator.clusters[0].profile=L4x2"));
        }
        return RunningService.start(Class.forName(APPLICATIONS.get(module)), broker.bootstrapServers(),
                properties.toArray(String[]::new));
    }

    @AfterAll
    static void stopEverything() throws Exception {
        SERVICES.values().forEach(RunningService::close);
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aClientWithoutCredentialsIsRefused() throws Exception {
        // Given the secured listener, when a client connects without SASL, then it never gets an answer
        assertThatThrownBy(() -> clusterNodes(Map.of())).isInstanceOf(ExecutionException.class);
        // and when it brings a wrong password, then the broker refuses the authentication
        assertThatThrownBy(() -> clusterNodes(KraftBroker.saslPlainClient("zerolayer", "wrong")))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SaslAuthenticationException.class);
        // while the credentials the services were given work
        assertThat(clusterNodes(broker.clientProperties())).isEqualTo(1);
    }

    @Test
    void everyServiceStartsReadsItsTopicsAndPublishes() throws Exception {
        RunningService router = SERVICES.get("router-service");
        RunningService fallback = SERVICES.get("fallback-service");
        RunningService complexity = SERVICES.get("complexity-service");

        // Given every service ready (the router's readiness waits until its views read their topics to the end)
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> SERVICES.forEach(
                (module, service) -> assertThat(service.get("/actuator/health/readiness").statusCode())
                        .as("%s readiness", module).isEqualTo(200)));
        // and complexity-service having caught up with its model topic and published the built-in model
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode owner = health(complexity).path("components").path("modelOwner").path("details");
            assertThat(owner.path("state").asString("")).isEqualTo("READY");
        });

        // When a request goes through the router once the simulated node's samples, turned into node health by
        // telemetry-service, reached the router's view
        String system = "You are the support assistant of a parcel company. Answer with the order id, the current "
                + "location, the expected delivery date and the next step, in a short table. ".repeat(4);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                post(router, system).statusCode() == 200);

        // Then its decision is on router.decisions.v1 and fallback-service counted it
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode stats = EventCodec.mapper().readTree(fallback.get("/v1/fallback/stats").body());
            assertThat(stats.path("total").path("decisions").asLong(0)).isPositive();
        });
        // and the console, reading the node-health topic with the same client settings, lists the simulated node
        RunningService console = SERVICES.get("console-service");
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode nodes = EventCodec.mapper().readTree(console.get("/console/api/snapshot").body())
                    .path("fleet").path("nodes");
            assertThat(nodes.size()).isEqualTo(1);
            assertThat(nodes.get(0).path("nodeId").asString("")).startsWith("haiku-l4");
        });
        // and each service's published topic holds records: the simulator's samples and KV events, telemetry's node
        // health, complexity's model, cache's index, fallback's policy, the router's decisions
        try (KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers(), broker.clientProperties())) {
            for (String topic : List.of(Topics.TELEMETRY_SAMPLES, Topics.CACHE_KV_EVENTS, Topics.TELEMETRY_NODE_HEALTH,
                    Topics.COMPLEXITY_MODEL, Topics.CACHE_KV_INDEX, Topics.FALLBACK_POLICY, Topics.ROUTER_DECISIONS)) {
                await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(kafka.readAll(topic)).as(topic).isNotEmpty());
            }
        }

        // When an operator changes the policy over fallback-service's API
        HttpResponse<String> current = fallback.get("/v1/policy");
        assertThat(current.statusCode()).as(current.body()).isEqualTo(200);
        long before = health(router).path("components").path("policy").path("details").path("version").asLong();
        ObjectNode document = (ObjectNode) EventCodec.mapper().readTree(current.body());
        ((ObjectNode) document.path("tierTable").get(0)).put("maxComplexity", 0.35);
        HttpResponse<String> changed = HTTP.send(HttpRequest.newBuilder(URI.create(fallback.baseUrl() + "/v1/policy"))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .header("authorization", "Bearer " + ADMIN_TOKEN)
                .header("if-match", current.headers().firstValue("ETag").orElseThrow())
                .PUT(HttpRequest.BodyPublishers.ofString(document.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);

        // Then the router runs on the new version (published by fallback-service, read by the router's view)
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(health(router).path("components").path("policy").path("details").path("version").asLong())
                        .isGreaterThan(before));
    }

    private static Map<String, Object> secured(Map<String, String> clientProperties) {
        return KafkaClientSecurity.adminConfig(broker.bootstrapServers(), clientProperties, 5_000, 3_000);
    }

    private static int clusterNodes(Map<String, String> clientProperties) throws Exception {
        try (Admin admin = Admin.create(secured(clientProperties))) {
            return admin.describeCluster().nodes().get(15, TimeUnit.SECONDS).size();
        }
    }

    private static JsonNode health(RunningService service) {
        return EventCodec.mapper().readTree(service.get("/actuator/health").body());
    }

    private static HttpResponse<String> post(RunningService router, String system) throws Exception {
        String body = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,\"system\":\"" + system
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Where is order 48213?\"}]}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/messages"))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .header("anthropic-version", "2023-06-01").header("x-session-id", "secured-broker-it")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
