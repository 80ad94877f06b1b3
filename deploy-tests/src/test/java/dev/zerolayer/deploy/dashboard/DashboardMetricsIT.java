package dev.zerolayer.deploy.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.deploy.repo.ServiceConfig;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.ProvisionTopics;
import dev.zerolayer.platform.topics.TopicProvisioner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every metric the Grafana dashboard queries is exported by a running service: the five services and a one-node
 * simulated fleet start once against the real in-process broker (each with its own application.yml, unpacked from its
 * jar), two requests go through the router (one routed as asked, one falling back to another tier) and one poison
 * record through telemetry, then each service's {@code /actuator/prometheus} is scraped.
 */
@ExtendWith(SharedKafka.class)
class DashboardMetricsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
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

    @BeforeAll
    static void startEverything() throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        // what the compose one-shot and the chart's Job do
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            new TopicProvisioner(admin, (short) 1).ensure(ProvisionTopics.allWithDeadLetters());
        }
        // one after the other: Spring Boot's logging initialisation is not safe for contexts starting in parallel in
        // one JVM (a ConcurrentModificationException in LoggingApplicationListener was seen on CI)
        for (String module : ServiceConfig.MODULES) {
            SERVICES.put(module, start(module, servers));
        }
    }

    private static RunningService start(String module, String servers) throws ClassNotFoundException {
        Path config = Path.of(System.getProperty("zerolayer.services.dir", "target/services"), module,
                "BOOT-INF/classes/application.yml").toAbsolutePath();
        assertThat(config).as("unpacked by the dependency plugin").exists();
        List<String> properties = new ArrayList<>(List.of("spring.config.location=file:" + config));
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
        return RunningService.start(Class.forName(APPLICATIONS.get(module)), servers,
                properties.toArray(String[]::new));
    }

    @AfterAll
    static void stopEverything() {
        SERVICES.values().forEach(RunningService::close);
    }

    @Test
    void everyMetricTheDashboardQueriesIsExported() throws Exception {
        RunningService router = SERVICES.get("router-service");

        // Given traffic: a haiku request routed as asked, once the simulated node is healthy in the router's view
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                post(router, null).statusCode() == 200);
        // and a request pinned to sonnet: no sonnet node exists, so the policy's chain serves it on haiku (a fallback)
        HttpResponse<String> fallback = post(router, "sonnet");
        assertThat(fallback.statusCode()).isEqualTo(200);
        assertThat(fallback.headers().firstValue(ZeroLayerHeaders.FALLBACK_REASON)).hasValue("target_cluster_unavailable");
        // and a poison record that telemetry-service dead-letters
        try (KafkaTestClient kafka = new KafkaTestClient(SharedKafka.broker().bootstrapServers())) {
            kafka.send(Topics.TELEMETRY_SAMPLES, "junk", "{not json".getBytes(StandardCharsets.UTF_8));
        }

        // When every service is scraped, then each metric the dashboard reads is in some service's exposition
        Set<String> wanted = Dashboard.allMetricNames(Dashboard.load());
        assertThat(wanted).hasSizeGreaterThan(10);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Map<String, Set<String>> exported = scrapeAll();
            Set<String> all = new TreeSet<>();
            exported.values().forEach(all::addAll);
            assertThat(all).as("exported by %s", exported.keySet()).containsAll(wanted);
        });

        // and where they are expected: the router's own, telemetry's node states, the simulator's drops, views everywhere
        Map<String, Set<String>> exported = scrapeAll();
        assertThat(exported.get("router-service")).contains("zerolayer_requests_total", "zerolayer_route_total",
                "zerolayer_route_time_seconds_bucket", "zerolayer_upstream_ttfb_seconds_bucket",
                "zerolayer_fallback_total", "resilience4j_circuitbreaker_state", "zerolayer_router_events_dropped_total",
                "zerolayer_view_staleness_seconds");
        assertThat(exported.get("telemetry-service")).contains("zerolayer_telemetry_nodes",
                "zerolayer_events_rejected_total", "zerolayer_view_staleness_seconds");
        assertThat(exported.get("node-simulator")).contains("zerolayer_simulator_kv_events_dropped_total");
        String routerText = router.get("/actuator/prometheus").body();
        assertThat(routerText).contains("zerolayer_route_total{cluster=\"haiku-l4\",service=\"router-service\","
                + "tier=\"haiku\"}").contains("zerolayer_fallback_total{reason=\"target_cluster_unavailable\"");
        Files.writeString(Path.of("target", "dashboard-metrics.txt"), String.join("\n", wanted));
    }

    private static Map<String, Set<String>> scrapeAll() {
        Map<String, Set<String>> exported = new LinkedHashMap<>();
        SERVICES.forEach((module, service) -> {
            HttpResponse<String> response = service.get("/actuator/prometheus");
            assertThat(response.statusCode()).as(module).isEqualTo(200);
            exported.put(module, sampleNames(response.body()));
        });
        return exported;
    }

    /** Names of the samples in a Prometheus text exposition. */
    static Set<String> sampleNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }

    private static HttpResponse<String> post(RunningService router, String pinnedTier) throws Exception {
        String body = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Say hello\"}]}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/messages"))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .header("anthropic-version", "2023-06-01").POST(HttpRequest.BodyPublishers.ofString(body));
        if (pinnedTier != null) {
            request.header(ZeroLayerHeaders.ROUTING_PRIORITY, pinnedTier);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
