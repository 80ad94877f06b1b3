package dev.zerolayer.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.zerolayer.deploy.repo.RelaxedNames;
import dev.zerolayer.deploy.repo.Repo;
import dev.zerolayer.deploy.repo.ServiceConfig;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code docker-compose.yml} against the Compose Specification's JSON Schema, and each ZeroLayer service in it against
 * the application's own configuration: port, environment variables, health check, dependencies, limits, and the
 * Prometheus scrape targets.
 */
class ComposeFileTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static Schema schema;
    private static Map<String, Object> compose;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = ComposeFileTest.class.getResourceAsStream("/compose-spec/compose-spec.json")) {
            ObjectNode node = (ObjectNode) JSON.readTree(in);
            assertThat(node.get("$schema").asString()).contains("draft-07");
            node.remove("$schema");
            // the schema's relative $id ("compose_spec.json") needs a base: where the file is on the classpath
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(SchemaLocation.of("classpath:compose-spec/compose-spec.json"), node);
        }
        compose = Repo.yaml(Repo.read("docker-compose.yml"));
    }

    private static List<Error> validate(Map<String, Object> document) {
        JsonNode node = JSON.valueToTree(document);
        return schema.validate(node);
    }

    @Test
    void isAValidComposeFile() {
        assertThat(validate(compose)).as("schema errors").isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSchemaCheckCatchesMistakes() {
        // a misspelt health check key and a depends_on condition Compose does not know
        Map<String, Object> broken = deepCopy(compose);
        Map<String, Object> router = (Map<String, Object>) service(broken, "router-service");
        ((Map<String, Object>) router.get("healthcheck")).put("intervall", "5s");
        ((Map<String, Object>) ((Map<String, Object>) router.get("depends_on")).get("kafka"))
                .put("condition", "service_ready");
        List<String> messages = validate(broken).stream().map(Error::toString).toList();
        assertThat(messages).anyMatch(m -> m.contains("intervall"));
        assertThat(messages).anyMatch(m -> m.contains("condition") || m.contains("service_ready"));
    }

    @Test
    void everyServiceListensWhereItsConfigurationSaysAndIsCheckedOnAHealthGroupItHas() {
        for (ServiceConfig config : ServiceConfig.all().values()) {
            Map<String, Object> service = service(compose, config.module());
            Map<String, String> env = environment(service);
            String port = String.valueOf(config.defaultPort());

            // the port variable the application reads is set to the port the image exposes and compose maps
            assertThat(env).as(config.module()).containsEntry(config.portVariable(), port);
            assertThat(strings(service.get("ports"))).as(config.module())
                    .anyMatch(mapping -> mapping.endsWith(":" + port + ":" + port) || mapping.equals(port + ":" + port));
            // only the router's client port is published beyond the host's loopback
            if (!config.module().equals("router-service")) {
                assertThat(strings(service.get("ports"))).as(config.module()).allMatch(m -> m.startsWith("127.0.0.1:"));
            }

            // the health check asks the service's own port for a health group the actuator serves
            List<String> test = strings(at(service, "healthcheck.test"));
            assertThat(test).as(config.module()).hasSize(4);
            assertThat(test.subList(0, 3)).containsExactly("CMD", "zl-healthcheck", port);
            assertThat(test.get(3)).startsWith("/actuator/health/");
            assertThat(config.healthGroups()).contains(test.get(3).substring("/actuator/health/".length()));
            assertThat(config.healthGroups()).contains("readiness", "liveness");
            assertThat(Repo.read("docker/" + config.module() + ".Dockerfile"))
                    .contains("docker/healthcheck.sh /usr/local/bin/zl-healthcheck");

            // every variable set is one the application reads: a placeholder of its configuration, or a relaxed name
            // of one of its configuration properties
            for (String name : env.keySet()) {
                assertThat(config.variables().contains(name) || RelaxedNames.bindsToAProperty(config.module(), name))
                        .as("%s: %s is read by nothing", config.module(), name).isTrue();
            }
            assertThat(config.variables()).contains("KAFKA_BOOTSTRAP_SERVERS");
            assertThat(env).containsEntry("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");

            // started only after a healthy broker and provisioned topics; memory-limited; built from its Dockerfile
            assertThat(at(service, "depends_on.kafka.condition")).isEqualTo("service_healthy");
            assertThat(at(service, "depends_on.topics.condition")).isEqualTo("service_completed_successfully");
            assertThat(at(service, "deploy.resources.limits.memory")).as(config.module()).isNotNull();
            assertThat(at(service, "build.dockerfile")).isEqualTo("docker/" + config.module() + ".Dockerfile");
            assertThat(at(service, "build.args")).as(config.module()).isEqualTo(Map.of(
                    "JAR_SOURCE", "${ZEROLAYER_JAR_SOURCE:-source}",
                    "BUILD_IMAGE", "${ZEROLAYER_BUILD_IMAGE:-eclipse-temurin:17-jdk}",
                    "RUNTIME_IMAGE", "${ZEROLAYER_RUNTIME_IMAGE:-eclipse-temurin:17-jre}"));
            assertThat(String.valueOf(service.get("image"))).startsWith("zerolayer/" + config.module() + ":");
        }
        assertThat(strings(service(compose, "router-service").get("ports"))).contains("8080:8080");
        assertThat(environment(service(compose, "router-service"))).containsKeys("ZEROLAYER_API_KEYS",
                "ZEROLAYER_ADMIN_TOKEN");
    }

    @Test
    void theBrokerTopicsAndTheFleetFitTogether() {
        Map<String, Object> kafka = service(compose, "kafka");
        // the public broker image by default, of the Kafka version the services are built against
        assertThat(String.valueOf(kafka.get("image"))).isEqualTo("${ZEROLAYER_KAFKA_IMAGE:-apache/kafka:"
                + AppInfoParser.getVersion() + "}");
        Map<String, String> kafkaEnv = environment(kafka);
        assertThat(kafkaEnv.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
        assertThat(kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS")).contains("PLAINTEXT://kafka:9092");
        assertThat(strings(at(kafka, "healthcheck.test")).toString()).contains("localhost:9092");

        // the one-shot provisioning runs platform's ProvisionTopics against the same broker, after it is healthy
        Map<String, Object> topics = service(compose, "topics");
        assertThat(strings(topics.get("entrypoint"))).contains("dev.zerolayer.platform.topics.ProvisionTopics");
        assertThat(strings(topics.get("command"))).containsExactly("kafka:9092", "1");
        assertThat(at(topics, "depends_on.kafka.condition")).isEqualTo("service_healthy");
        assertThat(topics.get("restart")).isEqualTo("no");
        assertThat(Repo.read("platform/src/main/java/dev/zerolayer/platform/topics/ProvisionTopics.java"))
                .contains("usage: ProvisionTopics <bootstrap-servers> [replication-factor]");

        // simulated nodes register under the service name, which telemetry-service accepts
        Map<String, String> simulator = environment(service(compose, "node-simulator"));
        assertThat(simulator).containsEntry("ZEROLAYER_SIMULATOR_ADVERTISEDHOST", "node-simulator")
                .containsEntry("SIMULATOR_NODE_ADDRESS", "0.0.0.0").containsEntry("SIMULATOR_ADDRESS", "0.0.0.0");
        assertThat(environment(service(compose, "telemetry-service")).get("ZEROLAYER_TELEMETRY_ALLOWEDUPSTREAMHOSTS")
                .split(",")).contains("node-simulator");
        // the console reaches fallback-service and the simulator by their service names on the ports they listen on,
        // offers the fault buttons (compose runs the simulated fleet), and holds no admin token: it passes on the
        // caller's
        Map<String, String> console = environment(service(compose, "console-service"));
        assertThat(console)
                .containsEntry("FALLBACK_URL", "http://fallback-service:" + ServiceConfig.of("fallback-service").defaultPort())
                .containsEntry("SIMULATOR_URL", "http://node-simulator:" + ServiceConfig.of("node-simulator").defaultPort())
                .containsEntry("CONSOLE_LOCAL", "true").doesNotContainKey("ZEROLAYER_ADMIN_TOKEN");
        assertThat(ServiceConfig.of("console-service").variables()).contains("FALLBACK_URL", "SIMULATOR_URL",
                "CONSOLE_LOCAL");
        for (String name : List.of("kafka", "topics", "prometheus", "grafana")) {
            assertThat(at(service(compose, name), "deploy.resources.limits.memory")).as(name).isNotNull();
        }
    }

    @Test
    void runsUnderComposeV1AndV2AndOptionalPartsAreOptIn() {
        // Compose v1 refuses a top-level name: the project name comes from .env, which v1 and v2 both read
        assertThat(compose).doesNotContainKey("name");
        assertThat(Repo.read(".env").lines()).contains("COMPOSE_PROJECT_NAME=zerolayer");
        // third-party images are the public ones unless a variable names another (a mirror, a test stand-in)
        assertThat(String.valueOf(service(compose, "prometheus").get("image")))
                .isEqualTo("${ZEROLAYER_PROMETHEUS_IMAGE:-prom/prometheus:v3.5.0}");
        assertThat(String.valueOf(service(compose, "grafana").get("image")))
                .startsWith("${ZEROLAYER_GRAFANA_IMAGE:-grafana/grafana:");
        // Grafana only with its profile; everything else always
        assertThat(strings(service(compose, "grafana").get("profiles"))).containsExactly("grafana");
        @SuppressWarnings("unchecked")
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        services.forEach((name, service) -> assertThat(Repo.at(service, "profiles"))
                .as(name).isEqualTo(name.equals("grafana") ? List.of("grafana") : null));
    }

    @Test
    @SuppressWarnings("unchecked")
    void prometheusScrapesEveryServiceAndGrafanaGetsTheDashboard() {
        Map<String, Object> prometheus = Repo.yaml(Repo.read("deploy/prometheus/prometheus.yml"));
        List<String> targets = new ArrayList<>();
        for (Object job : (List<Object>) prometheus.get("scrape_configs")) {
            assertThat(at(job, "metrics_path")).isEqualTo("/actuator/prometheus");
            for (Object staticConfig : (List<Object>) at(job, "static_configs")) {
                targets.addAll(strings(at(staticConfig, "targets")));
            }
        }
        for (ServiceConfig config : ServiceConfig.all().values()) {
            assertThat(targets).contains(config.module() + ":" + config.defaultPort());
            assertThat(config.exposed()).contains("prometheus", "health");
        }
        assertThat(strings(service(compose, "prometheus").get("volumes")))
                .contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");

        List<String> grafanaVolumes = strings(service(compose, "grafana").get("volumes"));
        assertThat(grafanaVolumes).contains("./deploy/grafana/zerolayer.json:/var/lib/grafana/dashboards/zerolayer.json:ro",
                "./deploy/grafana/provisioning:/etc/grafana/provisioning:ro");
        Map<String, Object> provider = Repo.yaml(Repo.read("deploy/grafana/provisioning/dashboards/zerolayer.yml"));
        assertThat(at(((List<Object>) provider.get("providers")).get(0), "options.path"))
                .isEqualTo("/var/lib/grafana/dashboards");
        Map<String, Object> datasource = Repo.yaml(Repo.read("deploy/grafana/provisioning/datasources/prometheus.yml"));
        assertThat(at(((List<Object>) datasource.get("datasources")).get(0), "url")).isEqualTo("http://prometheus:9090");
        assertThat(at(service(compose, "grafana"), "depends_on.prometheus.condition")).isEqualTo("service_healthy");
    }

    // ---- helpers ----

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Map<String, Object> document, String name) {
        Object service = ((Map<String, Object>) document.get("services")).get(name);
        assertThat(service).as("compose service " + name).isNotNull();
        return (Map<String, Object>) service;
    }

    private static Object at(Object node, String path) {
        return Repo.at(node, path);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> env = new LinkedHashMap<>();
        Object raw = service.get("environment");
        if (raw instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).forEach((k, v) -> env.put(k, String.valueOf(v)));
        }
        return env;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object node) {
        return node == null ? List.of() : ((List<Object>) node).stream().map(String::valueOf).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> document) {
        return JSON.convertValue(JSON.valueToTree(document), Map.class);
    }
}
