package dev.zerolayer.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.localstack.credentials.Credentials;
import dev.zerolayer.localstack.health.HealthProbe;
import dev.zerolayer.localstack.health.ReadinessWaiter;
import dev.zerolayer.localstack.process.ChildSupervisor;
import dev.zerolayer.localstack.process.ServiceProcess;
import dev.zerolayer.localstack.process.ServiceSpec;
import dev.zerolayer.localstack.process.StackServices;
import dev.zerolayer.localstack.testing.LauncherProcess;
import dev.zerolayer.localstack.testing.RouteExplain;
import dev.zerolayer.localstack.testing.SteadyLoad;
import dev.zerolayer.localstack.testing.SteadyLoad.Sent;
import dev.zerolayer.platform.testing.KafkaTestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each state service (telemetry, cache, complexity, fallback), killed with SIGKILL while the router serves steady load
 * and started again: no client sees anything but a 200, the service is back with the state it had (read from Kafka),
 * it publishes again, and its compacted topics hold the same latest value per key as before but for what the test
 * changed on purpose, with no other value written for an unchanged key in between.
 */
class StateServicesKilledUnderLoadIT {

    private static final Path ROOT = LauncherProcess.ROOT;
    private static final String API_KEY = "zl-kill-it";
    private static final String ADMIN_TOKEN = "zla-kill-it";
    private static final String SIMULATOR = LauncherProcess.serviceUrl("node-simulator");
    private static final String TELEMETRY = LauncherProcess.serviceUrl("telemetry-service");
    private static final String COMPLEXITY = LauncherProcess.serviceUrl("complexity-service");
    private static final String CACHE = LauncherProcess.serviceUrl("cache-service");
    private static final String FALLBACK = LauncherProcess.serviceUrl("fallback-service");
    private static final String PARCEL = "You are the support assistant of a parcel company. Answer with the order id, "
            + "the current location, the expected delivery date and the next step. ";
    private static final String RAILWAY = "You are the travel desk of a railway company. List the connections, the "
            + "platforms, the changes and the fares for the trip, cheapest first. ";
    private static final UnaryOperator<ObjectNode> CONTENT = StateServicesKilledUnderLoadIT::withoutEnvelope;
    private static final UnaryOperator<ObjectNode> NODE_STATE = StateServicesKilledUnderLoadIT::nodeState;
    private static final List<String> STATE_SERVICES = List.of("telemetry-service", "cache-service",
            "complexity-service", "fallback-service");
    private static final int WORKERS = 3;
    /** Requests answered before the kill, while the services are down, and after they are back (each at least). */
    private static final int REQUESTS_PER_PHASE = 15;
    /** A sonnet node the haiku-pinned load never touches: the telemetry fault goes there. */
    private static final String FAULTED_NODE = "sonnet-a100-40g-0";
    /** Node-health without its measurements (load, queue, score, sample age...): what a node's state is. */
    private static final List<String> NODE_STATE_FIELDS = List.of("nodeId", "registration", "state",
            "warmupDurationsMs", "policyVersion");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final HealthProbe probe = new HealthProbe();

    @TempDir
    Path tmp;

    @Test
    void eachStateServiceKilledUnderLoadComesBackWithItsStateAndPublishesAgain() throws Exception {
        for (String module : List.of("router-service", "node-simulator", "telemetry-service", "complexity-service",
                "cache-service", "fallback-service")) {
            Path jar = ROOT.resolve(module + "/target/" + module + ".jar");
            assumeTrue(Files.isRegularFile(jar), () -> "missing " + jar + "; build first: ./mvnw -B -q install -DskipTests");
        }
        long t0 = System.nanoTime();
        int routerPort = LauncherProcess.freePort();
        int kafkaPort = LauncherProcess.freePortPair();
        String router = "http://127.0.0.1:" + routerPort;
        Path data = tmp.resolve("data");
        Map<String, ServiceSpec> specs = StackServices.defaults(routerPort).stream()
                .filter(spec -> STATE_SERVICES.contains(spec.module()))
                .collect(Collectors.toMap(ServiceSpec::module, spec -> spec));
        Map<String, String> childEnv = LocalStack.childEnvironment(new Credentials(API_KEY, ADMIN_TOKEN, List.of()),
                kafkaPort, data);
        // Given the launcher running broker, topics, router and simulator, and the four state services started by
        // this test as its own children (the launcher's environment and command line) so that it can kill them
        try (LauncherProcess stack = LauncherProcess.start(tmp, LocalStack.class,
                Map.of(Credentials.API_KEYS, API_KEY, Credentials.ADMIN_TOKEN, ADMIN_TOKEN),
                "--port", Integer.toString(routerPort), "--root", ROOT.toString(),
                "--data-dir", data.toString(), "--kafka-port", Integer.toString(kafkaPort),
                "--skip", String.join(",", STATE_SERVICES));
                OwnedServices services = new OwnedServices(childEnv, tmp.resolve("owned-logs"))) {
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                    .until(() -> stack.stdout().contains("ZEROLAYER READY") || !stack.process().isAlive());
            assertThat(stack.process().isAlive()).as("launcher died; stderr:%n%s", stack.stderr()).isTrue();
            List<ServiceProcess> started = new ArrayList<>();
            STATE_SERVICES.forEach(module -> started.add(services.start(specs.get(module))));
            new ReadinessWaiter(probe, Duration.ofSeconds(180)).awaitAllUp(started);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(explainCandidates(router)).containsAllEntriesOf(Map.of("haiku-l4-0", "eligible",
                            "haiku-l4-1", "eligible")));
            System.out.printf("stack up with the four state services in %.1f s%n", (System.nanoTime() - t0) / 1e9);

            try (KafkaTestClient kafka = new KafkaTestClient("127.0.0.1:" + kafkaPort)) {
                // and state in each that a fresh start would not give: an uploaded complexity model, a changed
                // policy, a session whose long prompt's blocks are indexed, every simulated node warmed up (a cold
                // node warms up on its first request: a state change of its own, done before the comparison)
                String seededModel = uploadModel("cx-kill-seeded", 1.1);
                long seededPolicy = changePolicy(250);
                assertThat(seededPolicy).isGreaterThan(1);
                String seeded = conversation(PARCEL, "Where is order 48213?");
                String holder = route(router, seeded, "kill-it-session-1");
                warmEveryNode();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(telemetryNodes().values()).allSatisfy(node -> {
                            assertThat(node.path("state").asString("")).isEqualTo("HEALTHY");
                            assertThat(node.path("warmupDurationsMs").size()).isPositive();
                        }));
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                        assertThat(cacheLookup(seeded).toString()).contains("\"node\":\"" + holder + "\""));
                // and the load's own session (its requests carry no session id: one session per key and client),
                // which the load keeps changing: known from the decisions of a first run of the load
                Set<String> loadSessions = loadSessions(kafka, router);
                assertThat(loadSessions).hasSize(1);
                awaitCachePublished(kafka);
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                        assertThat(TopicState.read(kafka, Topics.CACHE_SESSIONS, CONTENT).latest())
                                .containsKeys(loadSessions.toArray(String[]::new)));

                // and what each publishes, read to the end, and what each serves on its API
                TopicState healthBefore = TopicState.read(kafka, Topics.TELEMETRY_NODE_HEALTH, NODE_STATE);
                Map<String, JsonNode> nodesBefore = telemetryNodes();
                assertThat(nodesBefore).containsKeys("haiku-l4-0", "haiku-l4-1", FAULTED_NODE)
                        .hasSizeGreaterThanOrEqualTo(8);
                assertThat(healthBefore.latest()).isEqualTo(nodesBefore);
                TopicState indexBefore = TopicState.read(kafka, Topics.CACHE_KV_INDEX, CONTENT);
                TopicState sessionsBefore = TopicState.read(kafka, Topics.CACHE_SESSIONS, CONTENT);
                assertThat(indexBefore.latest()).isNotEmpty();
                assertThat(sessionsBefore.latest()).isNotEmpty();
                JsonNode cacheBefore = cacheState();
                JsonNode lookupBefore = cacheLookup(seeded);
                TopicState modelBefore = TopicState.read(kafka, Topics.COMPLEXITY_MODEL, CONTENT);
                assertThat(modelBefore.latest().get("active").path("modelVersion").asString("")).isEqualTo(seededModel);
                JsonNode modelApiBefore = json(get(COMPLEXITY + "/v1/complexity/model").body());
                TopicState policyBefore = TopicState.read(kafka, Topics.FALLBACK_POLICY, CONTENT);
                TopicState alertsBefore = TopicState.read(kafka, Topics.FALLBACK_ALERTS, CONTENT);
                assertThat(policyBefore.latest().get("active").path("version").asLong()).isEqualTo(seededPolicy);
                HttpResponse<String> policyApiBefore = get(FALLBACK + "/v1/policy");
                JsonNode historyBefore = json(get(FALLBACK + "/v1/policy/history").body());

                List<Sent> sent;
                try (SteadyLoad load = SteadyLoad.start(http, router, API_KEY, WORKERS)) {
                    // When, under steady load, all four are killed (SIGKILL), the load runs on without them, and
                    // they are started again
                    Restart restart = killAndRestartUnderLoad(load, services, specs);

                    // Then, the load still running, each is back with the state it had: telemetry serves every node
                    // as before once it consumes samples again (its first sample re-registers a node from its last
                    // published record), cache-service its index and sessions, complexity-service the uploaded
                    // model, fallback-service the changed policy and its history
                    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                            assertThat(telemetryNodes()).isEqualTo(nodesBefore));
                    long nodesBack = System.nanoTime();
                    assertThat(cacheState()).isEqualTo(cacheBefore);
                    assertThat(cacheLookup(seeded)).isEqualTo(lookupBefore);
                    assertThat(json(get(COMPLEXITY + "/v1/complexity/model").body())).isEqualTo(modelApiBefore);
                    HttpResponse<String> policyApiAfter = get(FALLBACK + "/v1/policy");
                    assertThat(policyApiAfter.headers().firstValue("ETag"))
                            .isEqualTo(policyApiBefore.headers().firstValue("ETag"))
                            .contains("\"" + seededPolicy + "\"");
                    assertThat(json(policyApiAfter.body())).isEqualTo(json(policyApiBefore.body()));
                    assertThat(json(get(FALLBACK + "/v1/policy/history").body())).isEqualTo(historyBefore);
                    int atRestored = load.count();
                    await().atMost(Duration.ofSeconds(30)).until(() -> load.count() >= atRestored + REQUESTS_PER_PHASE);
                    sent = load.stop();
                    System.out.printf("telemetry-service: every node back on its API %d ms after it was UP, %d ms "
                            + "after the kill%n", (nodesBack - restart.upAt().get("telemetry-service")) / 1_000_000,
                            (nodesBack - restart.killedAt()) / 1_000_000);
                    restart.print(sent.size());
                }
                // and every non-streaming request sent meanwhile (before, during and after the outage, until the
                // services were back) was answered 200
                Map<Integer, Long> statuses = sent.stream().collect(Collectors.groupingBy(Sent::status, TreeMap::new,
                        Collectors.counting()));
                System.out.printf("load over kill and restart: %d requests, statuses %s%n", sent.size(), statuses);
                assertThat(statuses).as("failures: %s", sent.stream().filter(s -> s.status() != 200).toList())
                        .containsOnlyKeys(200);

                // and the restarts wrote nothing on the topics of complexity-service and fallback-service, and no
                // value on those of cache-service and telemetry-service that differs from before
                assertThat(TopicState.read(kafka, Topics.COMPLEXITY_MODEL, CONTENT)).isEqualTo(modelBefore);
                assertThat(TopicState.read(kafka, Topics.FALLBACK_POLICY, CONTENT)).isEqualTo(policyBefore);
                assertThat(TopicState.read(kafka, Topics.FALLBACK_ALERTS, CONTENT)).isEqualTo(alertsBefore);
                assertNoOtherValueSince(kafka, Topics.CACHE_KV_INDEX, indexBefore, Set.of(), CONTENT);
                assertNoOtherValueSince(kafka, Topics.CACHE_SESSIONS, sessionsBefore, loadSessions, CONTENT);
                assertNoOtherValueSince(kafka, Topics.TELEMETRY_NODE_HEALTH, healthBefore, Set.of(), NODE_STATE);

                // When each is made to publish again: a fault on a node the load does not use (and its end), a new
                // long prompt in a new session, a model upload (a policy change last: telemetry republishes every
                // node with the new policy version)
                fault(FAULTED_NODE, "sm_saturation");
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                        assertThat(TopicState.read(kafka, Topics.TELEMETRY_NODE_HEALTH, NODE_STATE).latest()
                                .get(FAULTED_NODE).path("state").asString("")).isEqualTo("UNAVAILABLE"));
                clearFaults(FAULTED_NODE);
                String fresh = conversation(RAILWAY, "Berlin to Basel tomorrow?");
                String freshHolder = route(router, fresh, "kill-it-session-2");
                String nextModel = uploadModel("cx-kill-next", 1.2);

                // Then each record is on its topic
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                        assertThat(TopicState.read(kafka, Topics.TELEMETRY_NODE_HEALTH, NODE_STATE).latest()
                                .get(FAULTED_NODE)).isEqualTo(healthBefore.latest().get(FAULTED_NODE)));
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    assertThat(TopicState.read(kafka, Topics.CACHE_KV_INDEX, CONTENT).latest().entrySet())
                            .anySatisfy(entry -> {
                                assertThat(indexBefore.latest()).doesNotContainKey(entry.getKey());
                                assertThat(entry.getValue().path("nodes").toString()).contains(freshHolder);
                            });
                    assertThat(TopicState.read(kafka, Topics.CACHE_SESSIONS, CONTENT).latest())
                            .hasSize(sessionsBefore.latest().size() + 1);
                });
                TopicState modelAfter = TopicState.read(kafka, Topics.COMPLEXITY_MODEL, CONTENT);
                assertThat(modelAfter.latest().keySet()).containsExactly("active");
                assertThat(modelAfter.latest().get("active").path("modelVersion").asString("")).isEqualTo(nextModel);
                assertThat(recordsSince(kafka, Topics.COMPLEXITY_MODEL, modelBefore)).hasSize(1);

                // and, but for what the test changed, no key is lost, none has another latest value, and none was
                // written with another value meanwhile: telemetry republishes every node (heartbeats) with the state
                // it had but the faulted one, whose fault ended; cache-service wrote no record for a key it held
                TopicState healthAfter = TopicState.read(kafka, Topics.TELEMETRY_NODE_HEALTH, NODE_STATE);
                assertSameLatest(Topics.TELEMETRY_NODE_HEALTH, healthBefore, healthAfter, Set.of());
                assertNoOtherValueSince(kafka, Topics.TELEMETRY_NODE_HEALTH, healthBefore, Set.of(FAULTED_NODE),
                        NODE_STATE);
                TopicState indexAfter = TopicState.read(kafka, Topics.CACHE_KV_INDEX, CONTENT);
                TopicState sessionsAfter = TopicState.read(kafka, Topics.CACHE_SESSIONS, CONTENT);
                assertSameLatest(Topics.CACHE_KV_INDEX, indexBefore, indexAfter, Set.of());
                assertSameLatest(Topics.CACHE_SESSIONS, sessionsBefore, sessionsAfter, loadSessions);
                assertNothingWrittenSince(kafka, Topics.CACHE_KV_INDEX, indexBefore, Set.of());
                assertNothingWrittenSince(kafka, Topics.CACHE_SESSIONS, sessionsBefore, loadSessions);

                // When fallback-service is made to publish again too, then the next policy version is on its topic,
                // the one record written since the kill
                long nextPolicy = changePolicy(240);
                assertThat(nextPolicy).isEqualTo(seededPolicy + 1);
                TopicState policyAfter = TopicState.read(kafka, Topics.FALLBACK_POLICY, CONTENT);
                assertThat(policyAfter.latest().keySet()).containsExactly("active");
                assertThat(policyAfter.latest().get("active").path("version").asLong()).isEqualTo(nextPolicy);
                assertThat(recordsSince(kafka, Topics.FALLBACK_POLICY, policyBefore)).hasSize(1);
                System.out.printf("compared: %d nodes on node-health, %d index keys and %d sessions (%d and %d after "
                        + "the new prompt), 1 model, 1 policy%n", healthBefore.latest().size(),
                        indexBefore.latest().size(), sessionsBefore.latest().size(), indexAfter.latest().size(),
                        sessionsAfter.latest().size());
            }
            System.out.printf("state services killed under load: test body %.1f s%n", (System.nanoTime() - t0) / 1e9);
        }
    }

    // ---- kill under load ----------------------------------------------------------------------------------------

    /** When the services were killed, started again and UP, and how many requests the load had answered by then. */
    private record Restart(long killedAt, long startedAt, Map<String, Long> upAt, int atKill, int atUp) {

        void print(int total) {
            System.out.printf("all four killed under load: %d requests before the kill, %d while they were down, "
                    + "%d after all were UP (until every state was back and %d more)%n", atKill, atUp - atKill,
                    total - atUp, REQUESTS_PER_PHASE);
            upAt.forEach((module, up) -> System.out.printf("  %s: down %d ms (kill to UP), restart to UP %d ms%n",
                    module, (up - killedAt) / 1_000_000, (up - startedAt) / 1_000_000));
        }
    }

    /**
     * With {@code load} running: waits for some answers, kills every service (SIGKILL), waits for answers without
     * them, starts them again and waits until each is UP.
     */
    private Restart killAndRestartUnderLoad(SteadyLoad load, OwnedServices services, Map<String, ServiceSpec> specs)
            throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> load.count() >= REQUESTS_PER_PHASE);
        int atKill = load.count();
        long killedAt = System.nanoTime();
        for (String module : STATE_SERVICES) {
            services.kill(module);
        }
        for (String module : STATE_SERVICES) {
            assertThat(probe.up(specs.get(module).url())).as("%s answers after SIGKILL", module).isFalse();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> load.count() >= atKill + REQUESTS_PER_PHASE);
        long startedAt = System.nanoTime();
        Map<String, ServiceProcess> children = new TreeMap<>();
        STATE_SERVICES.forEach(module -> children.put(module, services.start(specs.get(module))));
        Map<String, Long> upAt = new TreeMap<>();
        await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(200)).until(() -> {
            children.forEach((module, child) -> {
                assertThat(child.alive()).as("%s exited on restart, see %s", module, child.log()).isTrue();
                if (!upAt.containsKey(module) && probe.up(specs.get(module).url())) {
                    upAt.put(module, System.nanoTime());
                }
            });
            return upAt.size() == children.size();
        });
        return new Restart(killedAt, startedAt, upAt, atKill, load.count());
    }

    /** The four state services as children of this JVM, each start with a supervisor and a log of its own. */
    private static final class OwnedServices implements AutoCloseable {

        private final Map<String, String> environment;
        private final Path logs;
        private final List<ChildSupervisor> supervisors = new ArrayList<>();
        private final Map<String, ServiceProcess> running = new HashMap<>();
        private int starts;

        OwnedServices(Map<String, String> environment, Path logs) {
            this.environment = environment;
            this.logs = logs;
        }

        ServiceProcess start(ServiceSpec spec) {
            ChildSupervisor supervisor = new ChildSupervisor(ROOT, logs.resolve(spec.module() + "-" + ++starts),
                    environment, ProcessHandle.current().pid());
            supervisors.add(supervisor);
            ServiceProcess child = supervisor.start(spec);
            running.put(spec.module(), child);
            return child;
        }

        /** SIGKILL, then waits for the process to be gone. */
        void kill(String module) throws InterruptedException {
            Process process = running.get(module).process();
            process.destroyForcibly();
            assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("%s gone after SIGKILL", module).isTrue();
        }

        @Override
        public void close() {
            supervisors.forEach(supervisor -> supervisor.stopAll(Duration.ofSeconds(1)));
        }
    }

    // ---- topics -------------------------------------------------------------------------------------------------

    /**
     * A compacted topic read to its end: the latest value per key as {@code view} shows it (null: tombstone) and the
     * next offset per partition.
     */
    private record TopicState(Map<String, JsonNode> latest, Map<Integer, Long> end) {

        static TopicState read(KafkaTestClient kafka, String topic, UnaryOperator<ObjectNode> view) {
            Map<String, JsonNode> latest = new HashMap<>();
            Map<Integer, Long> end = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
                latest.put(key(record), content(record, view));
                end.merge(record.partition(), record.offset() + 1, Math::max);
            }
            return new TopicState(latest, end);
        }
    }

    private static String key(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    }

    private static JsonNode content(ConsumerRecord<byte[], byte[]> record, UnaryOperator<ObjectNode> view) {
        return record.value() == null ? null : view.apply((ObjectNode) EventCodec.mapper().readTree(record.value()));
    }

    /** An event without its envelope (event id and time), which a republication may renew. */
    private static ObjectNode withoutEnvelope(ObjectNode event) {
        event.remove("eventId");
        event.remove("occurredAt");
        return event;
    }

    /**
     * A node-health record reduced to the node's state: registration (without its own envelope), state, warm-up
     * history, policy version.
     */
    private static ObjectNode nodeState(ObjectNode health) {
        ObjectNode state = EventCodec.mapper().createObjectNode();
        NODE_STATE_FIELDS.forEach(field -> state.set(field, health.get(field)));
        if (state.get("registration") instanceof ObjectNode registration) {
            withoutEnvelope(registration);
        }
        return state;
    }

    private static List<ConsumerRecord<byte[], byte[]>> recordsSince(KafkaTestClient kafka, String topic,
            TopicState before) {
        return kafka.readAll(topic).stream()
                .filter(record -> record.offset() >= before.end().getOrDefault(record.partition(), 0L)).toList();
    }

    /** Every key of {@code before} is still there after, with the same latest value unless it is {@code changed}. */
    private static void assertSameLatest(String topic, TopicState before, TopicState after, Set<String> changed) {
        assertThat(after.latest().keySet()).as("%s: keys lost over the restart", topic)
                .containsAll(before.latest().keySet());
        before.latest().forEach((key, value) -> {
            if (!changed.contains(key)) {
                assertThat(after.latest().get(key)).as("%s: latest value of %s", topic, key).isEqualTo(value);
            }
        });
    }

    /** No record written since {@code before} gives a key of it (but {@code changed}) another value, not even briefly. */
    private static void assertNoOtherValueSince(KafkaTestClient kafka, String topic, TopicState before,
            Set<String> changed, UnaryOperator<ObjectNode> view) {
        for (ConsumerRecord<byte[], byte[]> record : recordsSince(kafka, topic, before)) {
            String key = key(record);
            if (before.latest().containsKey(key) && !changed.contains(key)) {
                assertThat(content(record, view)).as("%s: %s at partition %d offset %d", topic, key,
                        record.partition(), record.offset()).isEqualTo(before.latest().get(key));
            }
        }
    }

    /** No record at all written since {@code before} for a key it holds (but {@code changed}): none republished. */
    private static void assertNothingWrittenSince(KafkaTestClient kafka, String topic, TopicState before,
            Set<String> changed) {
        assertThat(recordsSince(kafka, topic, before).stream().map(StateServicesKilledUnderLoadIT::key)
                .filter(key -> before.latest().containsKey(key) && !changed.contains(key)).toList())
                .as("%s: keys written again since the kill", topic).isEmpty();
    }

    // ---- the services' APIs -------------------------------------------------------------------------------------

    /** telemetry-service's {@code GET /v1/nodes}: each node's state fields by node id. */
    private Map<String, JsonNode> telemetryNodes() throws Exception {
        Map<String, JsonNode> nodes = new TreeMap<>();
        json(get(TELEMETRY + "/v1/nodes").body()).path("nodes").forEach(node ->
                nodes.put(node.path("nodeId").asString(""), nodeState((ObjectNode) node)));
        return nodes;
    }

    /** cache-service's index and sessions as {@code GET /v1/cache/stats} shows them (not its counters). */
    private JsonNode cacheState() throws Exception {
        JsonNode stats = json(get(CACHE + "/v1/cache/stats").body());
        ObjectNode state = EventCodec.mapper().createObjectNode();
        state.set("blocks", stats.get("blocks"));
        state.set("pairs", stats.get("pairs"));
        state.set("sessions", stats.get("sessions"));
        ObjectNode held = state.putObject("heldPerNode");
        stats.path("nodes").properties().forEach(node -> held.set(node.getKey(), node.getValue().get("blocks")));
        return state;
    }

    /**
     * Waits until cache-service has published what it holds: nothing pending, the index topic naming as many (block,
     * node) pairs as its node owners hold, and its view of the index as many as the topic.
     */
    private void awaitCachePublished(KafkaTestClient kafka) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            JsonNode stats = json(get(CACHE + "/v1/cache/stats").body());
            assertThat(stats.path("pendingHoldingsUpdates").asLong()).isZero();
            long published = TopicState.read(kafka, Topics.CACHE_KV_INDEX, StateServicesKilledUnderLoadIT::withoutEnvelope)
                    .latest().values().stream().filter(v -> v != null).mapToLong(v -> v.path("nodes").size()).sum();
            assertThat(published).isEqualTo(stats.path("ownedPairs").asLong());
            assertThat(stats.path("pairs").asLong()).isEqualTo(published);
        });
    }

    private JsonNode cacheLookup(String conversation) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create(CACHE + "/v1/cache/lookup")).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(conversation)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response.body());
    }

    /** Uploads the active model under a new version with every weight scaled; returns the version. */
    private String uploadModel(String version, double scale) throws Exception {
        ObjectNode model = (ObjectNode) json(get(COMPLEXITY + "/v1/complexity/model").body());
        model.remove("eventId");
        model.remove("occurredAt");
        model.put("modelVersion", version);
        ObjectNode weights = (ObjectNode) model.get("weights");
        weights.propertyNames().stream().toList()
                .forEach(name -> weights.put(name, weights.get(name).doubleValue() * scale));
        HttpResponse<String> uploaded = http.send(HttpRequest.newBuilder(
                URI.create(COMPLEXITY + "/v1/complexity/model")).header("content-type", "application/json")
                .header("authorization", "Bearer " + ADMIN_TOKEN)
                .PUT(HttpRequest.BodyPublishers.ofString(model.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(200);
        return version;
    }

    /** Changes the policy's bulkhead limit (harmless for a few workers); returns the new version. */
    private long changePolicy(int bulkheadMaxConcurrent) throws Exception {
        HttpResponse<String> current = get(FALLBACK + "/v1/policy");
        assertThat(current.statusCode()).as(current.body()).isEqualTo(200);
        ObjectNode document = (ObjectNode) json(current.body());
        ((ObjectNode) document.get("resilience")).put("bulkheadMaxConcurrent", bulkheadMaxConcurrent);
        HttpResponse<String> changed = http.send(HttpRequest.newBuilder(URI.create(FALLBACK + "/v1/policy"))
                .header("content-type", "application/json").header("authorization", "Bearer " + ADMIN_TOKEN)
                .header("if-match", current.headers().firstValue("ETag").orElseThrow())
                .PUT(HttpRequest.BodyPublishers.ofString(document.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        return Long.parseLong(changed.headers().firstValue("ETag").orElseThrow().replace("\"", ""));
    }

    /** Runs the load for a few requests; returns the session hashes its decisions carry. */
    private Set<String> loadSessions(KafkaTestClient kafka, String router) throws Exception {
        List<Sent> sent;
        try (SteadyLoad load = SteadyLoad.start(http, router, API_KEY, WORKERS)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> load.count() >= REQUESTS_PER_PHASE);
            sent = load.stop();
        }
        assertThat(sent).allSatisfy(s -> assertThat(s.status()).isEqualTo(200));
        Set<String> ids = sent.stream().map(Sent::requestId).collect(Collectors.toSet());
        Map<String, String> sessions = new HashMap<>();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            kafka.readAll(Topics.ROUTER_DECISIONS).stream()
                    .map(record -> EventCodec.decode(record.value(), RoutingDecision.class))
                    .filter(decision -> ids.contains(decision.requestId()))
                    .forEach(decision -> sessions.put(decision.requestId(), decision.sessionHash()));
            assertThat(sessions.keySet()).containsAll(ids);
        });
        return Set.copyOf(sessions.values());
    }

    /** One short request straight to every simulated node, in its protocol: none is cold any more. */
    private void warmEveryNode() throws Exception {
        for (JsonNode node : telemetryNodes().values()) {
            JsonNode registration = node.path("registration");
            boolean anthropic = registration.path("protocol").asString("").equals("anthropic");
            String body = "{\"model\":\"" + registration.path("model").asString("") + "\",\"max_tokens\":4,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"warm up\"}]}";
            HttpResponse<String> warmed = http.send(HttpRequest.newBuilder(URI.create(registration
                    .path("upstreamBaseUrl").asString("") + (anthropic ? "/v1/messages" : "/v1/chat/completions")))
                    .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(warmed.statusCode()).as("%s: %s", registration.path("nodeId"), warmed.body()).isEqualTo(200);
        }
    }

    private void fault(String node, String type) throws Exception {
        HttpResponse<String> injected = http.send(HttpRequest.newBuilder(
                URI.create(SIMULATOR + "/admin/nodes/" + node + "/faults"))
                .header("content-type", "application/json").header("authorization", "Bearer " + ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"" + type
                        + "\",\"durationMs\":60000,\"intensity\":1.0}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(injected.statusCode()).as(injected.body()).isEqualTo(201);
    }

    private void clearFaults(String node) throws Exception {
        HttpResponse<String> cleared = http.send(HttpRequest.newBuilder(
                URI.create(SIMULATOR + "/admin/nodes/" + node + "/faults"))
                .header("authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
    }

    // ---- router -------------------------------------------------------------------------------------------------

    /** A conversation whose long system prompt spans many KV blocks. */
    private static String conversation(String system, String question) {
        return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":16,\"system\":\"" + system.repeat(8)
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
    }

    /** Sends one sonnet-pinned request in a session; returns the node that served it. */
    private String route(String router, String conversation, String session) throws Exception {
        HttpResponse<String> served = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                .header("content-type", "application/json").header("x-api-key", API_KEY)
                .header("anthropic-routing-priority", "sonnet").header("anthropic-debug", "route")
                .header("x-session-id", session)
                .POST(HttpRequest.BodyPublishers.ofString(conversation)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        return served.headers().firstValue("X-Anthropic-Route").orElseThrow().replaceAll(".*/", "");
    }

    /** Every candidate node of an explained haiku-pinned decision: "eligible" or its exclusion reason. */
    private Map<String, String> explainCandidates(String router) throws Exception {
        return RouteExplain.haikuCandidates(http, router, API_KEY);
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String body) {
        return EventCodec.mapper().readTree(body);
    }
}
