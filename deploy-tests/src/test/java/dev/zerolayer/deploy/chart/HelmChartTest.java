package dev.zerolayer.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.zerolayer.deploy.repo.Repo;
import dev.zerolayer.deploy.repo.ServiceConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Helm chart rendered and linted by Helm itself (helm-java bundles it), for the default values and
 * {@code examples/production-values.yaml}, with assertions on the rendered objects.
 *
 * <p>helm-java's template and dry-run install return the release manifest without hooks, so the topic Job (a hook) is
 * checked in a copy of the chart whose hook annotation names are masked: Helm renders that Job like any other object,
 * and the masked annotations carry the values the real ones have.
 */
class HelmChartTest {

    private static final String KUBE_VERSION = "1.30.0";
    private static final String CHART = "charts/zerolayer";
    private static final String PRODUCTION = CHART + "/examples/production-values.yaml";
    private static final String HOOK_MASK = "zerolayer.test/hook";
    private static final String BINDER = "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_";
    private static final Map<String, String> CHART_KEY = Map.of("router-service", "router", "telemetry-service",
            "telemetry", "complexity-service", "complexity", "cache-service", "cache", "fallback-service", "fallback",
            "node-simulator", "simulator", "console-service", "console");

    private static Path masked;

    @BeforeAll
    static void copyChartWithVisibleHooks() throws IOException {
        masked = Path.of("target", "chart-hooks-visible", "zerolayer").toAbsolutePath();
        copy(Repo.file(CHART), masked);
        Path job = masked.resolve("templates/topics-job.yaml");
        Files.writeString(job, Files.readString(job).replace("\"helm.sh/hook", "\"" + HOOK_MASK));
    }

    // ---- lint ----

    @Test
    void lintsCleanWithTheDefaultValuesAndWithTheProductionExample() throws IOException {
        LintResult defaults = new Helm(Repo.file(CHART)).lint().strict().call();
        assertThat(defaults.isFailed()).as("lint messages: %s", defaults.getMessages()).isFalse();
        assertThat(defaults.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));

        // helm-java's lint takes no values file: lint a copy whose values.yaml is the defaults with the example merged in
        Path merged = Path.of("target", "chart-production", "zerolayer").toAbsolutePath();
        copy(Repo.file(CHART), merged);
        Map<String, Object> values = deepMerge(Repo.yaml(Repo.read(CHART + "/values.yaml")),
                Repo.yaml(Repo.read(PRODUCTION)));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Files.writeString(merged.resolve("values.yaml"), new Yaml(options).dump(values));
        LintResult production = new Helm(merged).lint().strict().call();
        assertThat(production.isFailed()).as("lint messages: %s", production.getMessages()).isFalse();
    }

    // ---- default values ----

    @Test
    void everyServiceHasRequestsProbesOnTheHealthGroupsAndRunsAsNonRootOnItsOwnPort() {
        List<Map<String, Object>> objects = render(null);
        Map<String, ServiceConfig> configs = ServiceConfig.all();
        List<Map<String, Object>> deployments = ofKind(objects, "Deployment");
        assertThat(deployments).extracting(HelmChartTest::name).containsExactlyInAnyOrder(
                "zl-zerolayer-router-service", "zl-zerolayer-telemetry-service", "zl-zerolayer-complexity-service",
                "zl-zerolayer-cache-service", "zl-zerolayer-fallback-service", "zl-zerolayer-console-service");

        for (Map<String, Object> deployment : deployments) {
            Map<String, Object> pod = map(Repo.at(deployment, "spec.template.spec"));
            Map<String, Object> container = map(list(pod.get("containers")).get(0));
            ServiceConfig config = configs.get(String.valueOf(container.get("name")));
            assertThat(config).as("container named after a module: %s", container.get("name")).isNotNull();

            // resources: requests present
            assertThat(Repo.at(container, "resources.requests.cpu")).as(config.module()).isNotNull();
            assertThat(Repo.at(container, "resources.requests.memory")).as(config.module()).isNotNull();

            // probes on the actuator health groups the service really has, on its http port
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                String path = String.valueOf(Repo.at(container, probe + ".httpGet.path"));
                assertThat(path).as(config.module() + " " + probe).startsWith("/actuator/health/");
                assertThat(config.healthGroups()).contains(path.substring("/actuator/health/".length()));
                assertThat(Repo.at(container, probe + ".httpGet.port")).isEqualTo("http");
            }
            assertThat(Repo.at(container, "readinessProbe.httpGet.path")).isEqualTo("/actuator/health/readiness");
            assertThat(Repo.at(container, "livenessProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");

            // the port the application listens on (its own variable) is the container's http port
            int containerPort = ((Number) Repo.at(list(container.get("ports")).get(0), "containerPort")).intValue();
            assertThat(containerPort).isEqualTo(config.defaultPort());
            assertThat(env(container)).containsEntry(config.portVariable(), String.valueOf(containerPort));

            // non-root, no privilege escalation, read-only root filesystem with /tmp writable
            assertThat(Repo.at(pod, "securityContext.runAsNonRoot")).isEqualTo(true);
            assertThat(((Number) Repo.at(pod, "securityContext.runAsUser")).intValue()).isPositive();
            assertThat(Repo.at(container, "securityContext.allowPrivilegeEscalation")).isEqualTo(false);
            assertThat(Repo.at(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
            assertThat(list(Repo.at(container, "securityContext.capabilities.drop"))).contains("ALL");
            assertThat(list(container.get("volumeMounts"))).extracting(m -> map(m).get("mountPath")).contains("/tmp");
            assertThat(pod.get("automountServiceAccountToken")).isEqualTo(false);

            // Kafka wiring: the variable the services' configuration reads
            assertThat(config.variables()).contains("KAFKA_BOOTSTRAP_SERVERS");
            assertThat(env(container)).containsEntry("KAFKA_BOOTSTRAP_SERVERS",
                    "my-cluster-kafka-bootstrap.kafka.svc:9092");
            assertThat(env(container)).containsEntry(BINDER + "SECURITY_PROTOCOL", "PLAINTEXT");
        }
        Map<String, Object> router = find(deployments, "zl-zerolayer-router-service");
        Map<String, Object> routerContainer = map(list(Repo.at(router, "spec.template.spec.containers")).get(0));
        assertThat(envNames(routerContainer)).contains("ZEROLAYER_API_KEYS", "ZEROLAYER_ADMIN_TOKEN");
        assertThat(Repo.at(router, "spec.replicas")).as("the HPA owns the replica count").isNull();
    }

    @Test
    void replicatedServicesRunTwoUnderABudgetAndEveryServicesReplicasPreferDifferentNodes() {
        List<Map<String, Object>> objects = render(null);
        for (String name : List.of("telemetry-service", "complexity-service", "cache-service", "fallback-service",
                "console-service")) {
            Map<String, Object> deployment = find(ofKind(objects, "Deployment"), "zl-zerolayer-" + name);
            assertThat(Repo.at(deployment, "spec.replicas")).as(name).isEqualTo(2);
            Map<String, Object> budget = find(ofKind(objects, "PodDisruptionBudget"), "zl-zerolayer-" + name);
            assertThat(Repo.at(budget, "spec.minAvailable")).as(name).isEqualTo(1);
            assertThat(Repo.at(budget, "spec.selector.matchLabels")).as(name)
                    .isEqualTo(Repo.at(deployment, "spec.selector.matchLabels"));
        }

        for (Map<String, Object> deployment : ofKind(objects, "Deployment")) {
            Map<String, Object> term = map(Repo.at(map(list(Repo.at(deployment,
                    "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution"))
                    .get(0)), "podAffinityTerm"));
            assertThat(term.get("topologyKey")).as(name(deployment)).isEqualTo("kubernetes.io/hostname");
            assertThat(Repo.at(term, "labelSelector.matchLabels")).as(name(deployment))
                    .isEqualTo(Repo.at(deployment, "spec.selector.matchLabels"));
        }

        // an affinity of the operator's own replaces the default
        List<Map<String, Object>> custom = render(null, "telemetry.affinity.nodeAffinity"
                + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key",
                "pool", "telemetry.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                + ".nodeSelectorTerms[0].matchExpressions[0].operator", "Exists");
        Map<String, Object> pinned = find(ofKind(custom, "Deployment"), "zl-zerolayer-telemetry-service");
        assertThat(Repo.at(pinned, "spec.template.spec.affinity.podAntiAffinity")).isNull();
        assertThat(Repo.at(pinned, "spec.template.spec.affinity.nodeAffinity")).isNotNull();
    }

    @Test
    void routerHasAnHpaAndAPdbSelectingItsPods() {
        List<Map<String, Object>> objects = render(null);
        Map<String, Object> hpa = single(objects, "HorizontalPodAutoscaler");
        assertThat(hpa.get("apiVersion")).isEqualTo("autoscaling/v2");
        assertThat(Repo.at(hpa, "spec.scaleTargetRef.kind")).isEqualTo("Deployment");
        assertThat(Repo.at(hpa, "spec.scaleTargetRef.name")).isEqualTo("zl-zerolayer-router-service");
        assertThat(((Number) Repo.at(hpa, "spec.minReplicas")).intValue()).isGreaterThanOrEqualTo(2);
        assertThat(Repo.at(list(Repo.at(hpa, "spec.metrics")).get(0), "resource.name")).isEqualTo("cpu");

        Map<String, Object> pdb = find(ofKind(objects, "PodDisruptionBudget"), "zl-zerolayer-router-service");
        Map<String, Object> router = find(ofKind(objects, "Deployment"), "zl-zerolayer-router-service");
        assertThat(Repo.at(pdb, "spec.selector.matchLabels")).isEqualTo(Repo.at(router, "spec.selector.matchLabels"));
        assertThat(Repo.at(pdb, "spec.minAvailable")).isEqualTo(1);
        assertThat(ofKind(objects, "ServiceMonitor")).as("off by default").isEmpty();
        assertThat(ofKind(objects, "Secret")).extracting(HelmChartTest::name).containsExactly("zl-zerolayer-credentials");
    }

    @Test
    void topicProvisioningIsAPreInstallAndPreUpgradeHookJobRunningProvisionTopics() {
        String text = new Helm(masked).template().withName("zl").withNamespace("zerolayer")
                .withKubeVersion(KUBE_VERSION).call();
        Map<String, Object> job = single(Repo.yamlDocuments(text), "Job");
        Map<String, Object> annotations = map(Repo.at(job, "metadata.annotations"));
        assertThat(annotations).containsEntry(HOOK_MASK, "pre-install,pre-upgrade");
        assertThat(String.valueOf(annotations.get(HOOK_MASK + "-delete-policy"))).contains("before-hook-creation");

        Map<String, Object> pod = map(Repo.at(job, "spec.template.spec"));
        Map<String, Object> container = map(list(pod.get("containers")).get(0));
        assertThat(pod.get("restartPolicy")).isEqualTo("Never");
        assertThat(list(container.get("command"))).contains("dev.zerolayer.platform.topics.ProvisionTopics");
        assertThat(list(container.get("args"))).containsExactly("$(KAFKA_BOOTSTRAP_SERVERS)", "1");
        assertThat(env(container)).containsEntry("KAFKA_BOOTSTRAP_SERVERS", "my-cluster-kafka-bootstrap.kafka.svc:9092");
        assertThat(Repo.at(container, "resources.requests.memory")).isNotNull();
        assertThat(Repo.at(pod, "securityContext.runAsNonRoot")).isEqualTo(true);
        // the entry point named really exists with a main method
        assertThat(Repo.read("platform/src/main/java/dev/zerolayer/platform/topics/ProvisionTopics.java"))
                .contains("public static void main(String[] args)");

        // and the real template carries the real hook annotation
        assertThat(Repo.read(CHART + "/templates/topics-job.yaml"))
                .contains("\"helm.sh/hook\": pre-install,pre-upgrade");

        // with the Job off, the services create their own topics
        String off = new Helm(masked).template().withName("zl").withKubeVersion(KUBE_VERSION)
                .set("topics.job.enabled", "false").call();
        List<Map<String, Object>> objects = Repo.yamlDocuments(off);
        assertThat(ofKind(objects, "Job")).isEmpty();
        Map<String, Object> container2 = map(list(Repo.at(ofKind(objects, "Deployment").get(0),
                "spec.template.spec.containers")).get(0));
        assertThat(env(container2)).containsEntry("ZEROLAYER_PROVISIONTOPICS", "true");
    }

    /**
     * The manifest scripts/compose-check runs on a container engine (scripts/chart-on-engine.mjs): the chart with the
     * topic Job visible, the images compose builds ({@code zerolayer/<service>:latest}) and compose's broker.
     */
    @Test
    void rendersTheManifestThatComposeCheckRunsOnAnEngine() throws IOException {
        String text = new Helm(masked).template().withName("zl").withNamespace("zerolayer")
                .withKubeVersion(KUBE_VERSION).set("image.tag", "latest").set("image.pullPolicy", "Never")
                .set("kafka.bootstrapServers", "kafka:9092").set("auth.apiKeys", "sk-chart-on-engine")
                .set("auth.adminToken", "admin-chart-on-engine").set("simulator.enabled", "true").call();
        List<Map<String, Object>> objects = Repo.yamlDocuments(text);

        assertThat(ofKind(objects, "Job")).hasSize(1);
        assertThat(ofKind(objects, "Deployment")).hasSize(CHART_KEY.size()).allSatisfy(d -> {
            Map<String, Object> container = map(list(Repo.at(d, "spec.template.spec.containers")).get(0));
            assertThat(String.valueOf(container.get("image"))).matches("zerolayer/[a-z-]+:latest")
                    .isEqualTo("zerolayer/" + map(Repo.at(d, "metadata.labels")).get("app.kubernetes.io/component") + ":latest");
        });
        Path out = Path.of("target", "chart-on-engine", "manifest.json");
        Files.createDirectories(out.getParent());
        Files.writeString(out, JsonMapper.builder().build().writeValueAsString(objects));
    }

    @Test
    void installFailsWithoutResourceRequests() {
        Helm helm = new Helm(Repo.file(CHART));
        // the defaults install (client-only dry run)
        assertThat(helm.install().withName("zl").withNamespace("zerolayer").withKubeVersion(KUBE_VERSION).dryRun()
                .clientOnly().call().getStatus()).isEqualTo("pending-install");

        assertThatThrownBy(() -> helm.install().withName("zl").withNamespace("zerolayer")
                .withKubeVersion(KUBE_VERSION).dryRun().clientOnly().set("router.resources.requests", "null").call())
                .hasMessageContaining("router.resources.requests.cpu and router.resources.requests.memory are required");
        assertThatThrownBy(() -> helm.install().withName("zl").withKubeVersion(KUBE_VERSION).dryRun().clientOnly()
                .set("cache.resources.requests.memory", "null").call())
                .hasMessageContaining("cache.resources.requests");
        assertThatThrownBy(() -> helm.install().withName("zl").withKubeVersion(KUBE_VERSION).dryRun().clientOnly()
                .set("topics.job.resources", "null").call())
                .hasMessageContaining("topics.job.resources.requests");
    }

    // ---- production example ----

    @Test
    void productionExampleWiresSaslSslToEveryKafkaClientAndEnablesTheServiceMonitor() {
        List<Map<String, Object>> objects = render(Repo.file(PRODUCTION));
        for (Map<String, Object> deployment : ofKind(objects, "Deployment")) {
            Map<String, Object> pod = map(Repo.at(deployment, "spec.template.spec"));
            Map<String, Object> container = map(list(pod.get("containers")).get(0));
            Map<String, Object> env = env(container);
            assertThat(env).containsEntry("KAFKA_BOOTSTRAP_SERVERS", "prod-kafka-bootstrap.kafka.svc:9093")
                    .containsEntry(BINDER + "SECURITY_PROTOCOL", "SASL_SSL")
                    .containsEntry(BINDER + "SASL_MECHANISM", "SCRAM-SHA-512")
                    .containsEntry(BINDER + "SSL_TRUSTSTORE_TYPE", "PEM")
                    .containsEntry(BINDER + "SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "https")
                    .containsEntry(BINDER + "CLIENT_DNS_LOOKUP", "use_all_dns_ips")
                    .containsEntry("ZEROLAYER_REPLICATIONFACTOR", "3")
                    .containsEntry("ZEROLAYER_PROVISIONTOPICS", "false");
            assertThat(env.get(BINDER + "SASL_JAAS_CONFIG")).as("JAAS line from the KafkaUser Secret")
                    .isEqualTo(Map.of("secretKeyRef", Map.of("name", "zerolayer", "key", "sasl.jaas.config")));

            // the truststore file the env names is mounted from the cluster CA Secret
            String location = String.valueOf(env.get(BINDER + "SSL_TRUSTSTORE_LOCATION"));
            Map<String, Object> mount = list(container.get("volumeMounts")).stream().map(HelmChartTest::map)
                    .filter(m -> location.startsWith(m.get("mountPath") + "/")).findFirst().orElseThrow();
            Map<String, Object> volume = list(pod.get("volumes")).stream().map(HelmChartTest::map)
                    .filter(v -> v.get("name").equals(mount.get("name"))).findFirst().orElseThrow();
            assertThat(Repo.at(volume, "secret.secretName")).isEqualTo("prod-kafka-cluster-ca-cert");
            assertThat(location).endsWith("/ca.crt");
            assertThat(String.valueOf(Repo.at(container, "image"))).startsWith("registry.example.com/platform/zerolayer/")
                    .endsWith(":0.1.0");
        }
        Map<String, Object> monitor = single(objects, "ServiceMonitor");
        assertThat(Repo.at(monitor, "metadata.labels.release")).isEqualTo("kube-prometheus-stack");
        Map<String, Object> endpoint = map(list(Repo.at(monitor, "spec.endpoints")).get(0));
        assertThat(endpoint).containsEntry("path", "/actuator/prometheus").containsEntry("port", "http");
        ServiceConfig.all().values().forEach(c -> assertThat(c.exposed()).contains("prometheus"));
        for (Map<String, Object> service : ofKind(objects, "Service")) {
            assertThat(list(Repo.at(service, "spec.ports"))).extracting(p -> map(p).get("name")).contains("http");
            assertThat(map(Repo.at(service, "metadata.labels")))
                    .containsAllEntriesOf(map(Repo.at(monitor, "spec.selector.matchLabels")));
        }
        Map<String, Object> hpa = single(objects, "HorizontalPodAutoscaler");
        assertThat(Repo.at(hpa, "spec.minReplicas")).isEqualTo(3);
        assertThat(Repo.at(hpa, "spec.maxReplicas")).isEqualTo(12);
        assertThat(Repo.at(find(ofKind(objects, "PodDisruptionBudget"), "zl-zerolayer-router-service"),
                "spec.minAvailable")).isEqualTo(2);
        assertThat(ofKind(objects, "Secret")).as("credentials come from the existing Secret").isEmpty();

        // the hook Job gets the same Kafka settings
        String jobText = new Helm(masked).template().withName("zl").withKubeVersion(KUBE_VERSION)
                .withValuesFile(Repo.file(PRODUCTION)).call();
        Map<String, Object> jobContainer = map(list(Repo.at(single(Repo.yamlDocuments(jobText), "Job"),
                "spec.template.spec.containers")).get(0));
        assertThat(env(jobContainer)).containsEntry(BINDER + "SECURITY_PROTOCOL", "SASL_SSL")
                .containsKey(BINDER + "SASL_JAAS_CONFIG");
        assertThat(list(jobContainer.get("args"))).containsExactly("$(KAFKA_BOOTSTRAP_SERVERS)", "3");
    }

    @Test
    void saslWithAUserAndPasswordSecretBuildsTheJaasLineAndRefusesHalfConfiguredSecurity() {
        List<Map<String, Object>> objects = render(null, "kafka.securityProtocol", "SASL_SSL",
                "kafka.sasl.mechanism", "PLAIN", "kafka.sasl.credentialsSecret.name", "confluent-api-key");
        Map<String, Object> container = map(list(Repo.at(ofKind(objects, "Deployment").get(0),
                "spec.template.spec.containers")).get(0));
        List<String> names = envNames(container);
        Map<String, Object> env = env(container);
        assertThat(names.indexOf("KAFKA_SASL_PASSWORD")).as("defined before it is referenced")
                .isLessThan(names.indexOf(BINDER + "SASL_JAAS_CONFIG"));
        assertThat(env.get(BINDER + "SASL_JAAS_CONFIG")).isEqualTo("org.apache.kafka.common.security.plain."
                + "PlainLoginModule required username=\"$(KAFKA_SASL_USERNAME)\" password=\"$(KAFKA_SASL_PASSWORD)\";");
        assertThat(env.get(BINDER + "SSL_TRUSTSTORE_LOCATION")).as("JVM default CAs (Confluent Cloud)").isNull();

        Helm helm = new Helm(Repo.file(CHART));
        assertThatThrownBy(() -> helm.template().withName("zl").withKubeVersion(KUBE_VERSION)
                .set("kafka.securityProtocol", "SASL_SSL").set("kafka.sasl.mechanism", "SCRAM-SHA-512").call())
                .hasMessageContaining("needs kafka.sasl.jaasConfigSecret.name or kafka.sasl.credentialsSecret.name");
        assertThatThrownBy(() -> helm.template().withName("zl").withKubeVersion(KUBE_VERSION)
                .set("kafka.securityProtocol", "TLS").call())
                .hasMessageContaining("kafka.securityProtocol must be");
        assertThatThrownBy(() -> helm.template().withName("zl").withKubeVersion(KUBE_VERSION)
                .set("kafka.bootstrapServers", "").call())
                .hasMessageContaining("kafka.bootstrapServers is required");
    }

    @Test
    void theSimulatedFleetAdvertisesItsServiceNameAndTelemetryAcceptsIt() {
        List<Map<String, Object>> objects = render(null, "simulator.enabled", "true");
        Map<String, Object> simulator = find(ofKind(objects, "Deployment"), "zl-zerolayer-node-simulator");
        Map<String, Object> container = map(list(Repo.at(simulator, "spec.template.spec.containers")).get(0));
        assertThat(env(container)).containsEntry("ZEROLAYER_SIMULATOR_ADVERTISEDHOST", "zl-zerolayer-node-simulator")
                .containsEntry("SIMULATOR_NODE_BASE_PORT", "18100");
        Map<String, Object> service = find(ofKind(objects, "Service"), "zl-zerolayer-node-simulator");
        assertThat(list(Repo.at(service, "spec.ports"))).extracting(p -> map(p).get("port"))
                .contains(18085, 18100, 18107);
        Map<String, Object> telemetry = find(ofKind(objects, "Deployment"), "zl-zerolayer-telemetry-service");
        assertThat(env(map(list(Repo.at(telemetry, "spec.template.spec.containers")).get(0))))
                .containsEntry("ZEROLAYER_TELEMETRY_ALLOWEDUPSTREAMHOSTS", "zl-zerolayer-node-simulator");
        // the relaxed names bind to real properties of the simulator and telemetry settings
        assertThat(Repo.read("node-simulator/src/main/java/dev/zerolayer/simulator/fleet/FleetProperties.java"))
                .contains("String advertisedHost");
        assertThat(Repo.read("telemetry-service/src/main/java/dev/zerolayer/telemetry/config/TelemetryProperties.java"))
                .contains("List<String> allowedUpstreamHosts");
    }

    @Test
    void theConsoleReachesFallbackServiceAndOffersFaultButtonsOnlyWithTheSimulatedFleet() {
        // By default (no simulator in a cluster): the fallback Service for policy, no fault buttons, no admin token of
        // its own (admin actions pass on the caller's Authorization header)
        List<Map<String, Object>> objects = render(null);
        Map<String, Object> console = env(map(list(Repo.at(find(ofKind(objects, "Deployment"),
                "zl-zerolayer-console-service"), "spec.template.spec.containers")).get(0)));
        int fallbackPort = ServiceConfig.of("fallback-service").defaultPort();
        assertThat(console).containsEntry("FALLBACK_URL", "http://zl-zerolayer-fallback-service:" + fallbackPort)
                .containsEntry("CONSOLE_LOCAL", "false").doesNotContainKeys("SIMULATOR_URL", "ZEROLAYER_ADMIN_TOKEN");
        assertThat(list(Repo.at(find(ofKind(objects, "Service"), "zl-zerolayer-fallback-service"), "spec.ports")))
                .extracting(p -> map(p).get("port")).contains(fallbackPort);
        // the names set are the placeholders the console's configuration reads
        assertThat(ServiceConfig.of("console-service").variables()).contains("FALLBACK_URL", "SIMULATOR_URL",
                "CONSOLE_LOCAL");

        // With the simulated fleet (evaluation): the fault buttons, aimed at the simulator's Service
        Map<String, Object> local = env(map(list(Repo.at(find(ofKind(render(null, "simulator.enabled", "true"),
                "Deployment"), "zl-zerolayer-console-service"), "spec.template.spec.containers")).get(0)));
        assertThat(local).containsEntry("CONSOLE_LOCAL", "true").containsEntry("SIMULATOR_URL",
                "http://zl-zerolayer-node-simulator:" + ServiceConfig.of("node-simulator").defaultPort());
    }

    @Test
    void everyValueIsDocumentedWithAParamLine() {
        String text = Repo.read(CHART + "/values.yaml");
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("^\\s*## @param ([A-Za-z0-9_.]+) \\S", Pattern.MULTILINE).matcher(text);
        while (m.find()) {
            documented.add(m.group(1));
        }
        List<String> undocumented = new ArrayList<>();
        leafPaths("", Repo.yaml(text), new ArrayList<>()).forEach(path -> {
            boolean covered = false;
            for (String prefix = path; !prefix.isEmpty(); prefix = prefix.contains(".")
                    ? prefix.substring(0, prefix.lastIndexOf('.')) : "") {
                covered |= documented.contains(prefix);
            }
            if (!covered) {
                undocumented.add(path);
            }
        });
        assertThat(undocumented).as("values without a ## @param line").isEmpty();
        assertThat(documented).contains("kafka.bootstrapServers", "router.autoscaling.enabled", "extraEnv",
                "serviceMonitor.enabled", "topics.job.enabled");
        // and every documented key exists
        Map<String, Object> values = Repo.yaml(text);
        assertThat(documented).allSatisfy(key -> assertThat(hasPath(values, key)).as(key).isTrue());
        // each chart service key names a deployable module
        ServiceConfig.MODULES.forEach(module -> assertThat(Repo.at(values, CHART_KEY.get(module) + ".imageName"))
                .isEqualTo(module));
        ServiceConfig.all().values().forEach(c -> assertThat(Repo.at(values, CHART_KEY.get(c.module()) + ".port"))
                .as(c.module()).isEqualTo(c.defaultPort()));
    }

    // ---- helpers ----

    private static List<Map<String, Object>> render(Path valuesFile, String... sets) {
        var template = new Helm(Repo.file(CHART)).template().withName("zl").withNamespace("zerolayer")
                .withKubeVersion(KUBE_VERSION);
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile);
        }
        for (int i = 0; i < sets.length; i += 2) {
            template = template.set(sets[i], sets[i + 1]);
        }
        return Repo.yamlDocuments(template.call());
    }

    private static List<Map<String, Object>> ofKind(List<Map<String, Object>> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    private static Map<String, Object> single(List<Map<String, Object>> objects, String kind) {
        List<Map<String, Object>> found = ofKind(objects, kind);
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    private static Map<String, Object> find(List<Map<String, Object>> objects, String name) {
        return objects.stream().filter(o -> name.equals(name(o))).findFirst()
                .orElseThrow(() -> new AssertionError("no object named " + name));
    }

    private static String name(Map<String, Object> object) {
        return String.valueOf(Repo.at(object, "metadata.name"));
    }

    /** Container env as name -> value (or the valueFrom map). */
    private static Map<String, Object> env(Map<String, Object> container) {
        Map<String, Object> env = new LinkedHashMap<>();
        for (Object item : list(container.get("env"))) {
            Map<String, Object> var = map(item);
            env.put(String.valueOf(var.get("name")), var.containsKey("value") ? String.valueOf(var.get("value"))
                    : var.get("valueFrom"));
        }
        return env;
    }

    private static List<String> envNames(Map<String, Object> container) {
        return list(container.get("env")).stream().map(v -> String.valueOf(map(v).get("name"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    private static List<String> leafPaths(String prefix, Object node, List<String> out) {
        if (node instanceof Map<?, ?> m && !m.isEmpty()) {
            m.forEach((k, v) -> leafPaths(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, v, out));
        } else {
            out.add(prefix);
        }
        return out;
    }

    private static boolean hasPath(Map<String, Object> values, String dotted) {
        Object current = values;
        for (String part : dotted.split("\\.")) {
            if (!(current instanceof Map<?, ?> m) || !m.containsKey(part)) {
                return false;
            }
            current = m.get(part);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> deepMerge(Map<String, Object> base, Map<String, Object> override) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        override.forEach((k, v) -> {
            Object existing = merged.get(k);
            merged.put(k, existing instanceof Map<?, ?> e && v instanceof Map<?, ?> o
                    ? deepMerge((Map<String, Object>) e, (Map<String, Object>) o) : v);
        });
        return merged;
    }

    private static void copy(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                old.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        Objects.requireNonNull(to);
    }
}
