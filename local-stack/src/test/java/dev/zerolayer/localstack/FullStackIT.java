package dev.zerolayer.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The whole stack as {@code ./zerolayer up} runs it (broker, topics, five services, the simulated fleet): real clients
 * (the official SDKs, the Vercel AI SDK, LangChain JS, Claude Code) work against it unchanged, a 4,096-token whole
 * answer is served by its tier without a bypass, node faults under steady load never reach non-streaming clients, faulted
 * nodes leave the candidate set and come back after recovery, and every request has its decision on the topic.
 */
class FullStackIT {

    private static final Path ROOT = LauncherProcess.ROOT;
    private static final String API_KEY = "zl-fullstack-it";
    private static final String SIMULATOR = LauncherProcess.serviceUrl("node-simulator");
    private static final String TELEMETRY = LauncherProcess.serviceUrl("telemetry-service");
    private static final String FALLBACK = LauncherProcess.serviceUrl("fallback-service");
    private static final String ADMIN_TOKEN = "zla-fullstack-it";
    private static final List<String> JARS = List.of("router-service", "telemetry-service", "complexity-service",
            "cache-service", "fallback-service", "node-simulator", "console-service");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path tmp;

    @Test
    void realClientsWorkFaultsStayInvisibleAndEveryDecisionIsPublished() throws Exception {
        for (String module : JARS) {
            Path jar = ROOT.resolve(module + "/target/" + module + ".jar");
            assumeTrue(Files.isRegularFile(jar), () -> "missing " + jar + "; build first: ./mvnw -B -q install -DskipTests");
        }
        int routerPort = LauncherProcess.freePort();
        int kafkaPort = LauncherProcess.freePortPair();
        String router = "http://127.0.0.1:" + routerPort;
        try (LauncherProcess stack = LauncherProcess.start(tmp, LocalStack.class,
                Map.of("ZEROLAYER_API_KEYS", API_KEY, "ZEROLAYER_ADMIN_TOKEN", ADMIN_TOKEN),
                "--port", Integer.toString(routerPort), "--root", ROOT.toString(),
                "--data-dir", tmp.resolve("data").toString(), "--kafka-port", Integer.toString(kafkaPort))) {
            // Given the whole stack, READY, with every simulated node known to the router as HEALTHY
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .until(() -> stack.stdout().contains("ZEROLAYER READY") || !stack.process().isAlive());
            assertThat(stack.process().isAlive()).as("launcher died; stderr:%n%s", stack.stderr()).isTrue();
            assertThat(simulatedNodes()).contains("haiku-l4-0", "haiku-l4-1", "sonnet-a100-40g-0")
                    .hasSizeGreaterThanOrEqualTo(8);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(explainCandidates(router)).containsAllEntriesOf(Map.of("haiku-l4-0", "eligible",
                            "haiku-l4-1", "eligible", "sonnet-a100-40g-0", "eligible")));

            // When a 4,096-token whole answer is asked for (vLLM's ignore_eos: the whole limit, ~70 s at haiku's
            // simulated speed, far past its 2 s first-token limit) while the client suite runs
            String longAnswer = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":4096,\"ignore_eos\":true,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"Write a long story.\"}]}";
            var longCall = http.sendAsync(HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                    .header("content-type", "application/json").header("x-api-key", API_KEY)
                    .header("anthropic-routing-priority", "haiku").header("anthropic-debug", "route")
                    .timeout(Duration.ofMinutes(5)).POST(HttpRequest.BodyPublishers.ofString(longAnswer)).build(),
                    HttpResponse.BodyHandlers.ofString());

            // and real clients run against it, unchanged but for the base URL and key: the official SDKs, the Vercel
            // AI SDK, LangChain JS and the Claude Code CLI, each whole, streamed, through a tool round trip and an error
            clientSuite(router);

            // Then the long answer came whole from the haiku node it was routed to, with no bypass
            HttpResponse<String> longResponse = longCall.get(5, TimeUnit.MINUTES);
            assertThat(longResponse.statusCode()).as(longResponse.body()).isEqualTo(200);
            assertThat(EventCodec.mapper().readTree(longResponse.body()).path("usage").path("output_tokens").asInt())
                    .isEqualTo(4096);
            assertThat(longResponse.headers().firstValue("X-Anthropic-Route").orElse("")).startsWith("haiku/");
            assertThat(longResponse.headers().firstValue("X-Anthropic-Fallback-Reason")).isEmpty();

            // When, under steady haiku-pinned load, haiku's Anthropic nodes crash and fail every request, and then
            // the sonnet node the traffic falls back to saturates
            List<Sent> sent = new ArrayList<>();
            sent.addAll(steadyLoad(router, Duration.ofSeconds(12), 6, List.of(
                    new Fault(2_000, "haiku-l4-0", "crash", 1.0),
                    new Fault(4_000, "haiku-l4-1", "errors", 1.0),
                    new Fault(6_000, "sonnet-a100-40g-0", "sm_saturation", 1.0))));

            // Then no non-streaming client saw anything but a 200
            Map<Integer, Long> statuses = sent.stream().collect(Collectors.groupingBy(Sent::status,
                    Collectors.counting()));
            System.out.printf("steady load under faults: %d requests, statuses %s%n", sent.size(), statuses);
            assertThat(sent).hasSizeGreaterThan(50);
            assertThat(statuses).containsOnlyKeys(200);

            // and telemetry marks the crashed node DOWN and the saturated one UNAVAILABLE,
            // and the router no longer offers them (nor the erroring node, whose breaker opened)
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                assertThat(nodeState("haiku-l4-0")).isEqualTo("DOWN");
                assertThat(nodeState("sonnet-a100-40g-0")).isEqualTo("UNAVAILABLE");
            });
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                Map<String, String> faulted = explainCandidates(router);
                assertThat(faulted.get("haiku-l4-0")).isEqualTo("state DOWN");
                assertThat(faulted.get("sonnet-a100-40g-0")).isEqualTo("state UNAVAILABLE");
            });
            List<Sent> afterDetection = steadyLoad(router, Duration.ofSeconds(3), 4, List.of());
            assertThat(afterDetection).isNotEmpty().allSatisfy(s -> {
                assertThat(s.status()).isEqualTo(200);
                assertThat(s.route()).doesNotEndWith("/haiku-l4-0").doesNotEndWith("/sonnet-a100-40g-0");
            });
            sent.addAll(afterDetection);

            // When the faults end, then the saturated node is HEALTHY and eligible again
            for (String node : List.of("haiku-l4-0", "haiku-l4-1", "sonnet-a100-40g-0")) {
                HttpResponse<String> cleared = http.send(HttpRequest.newBuilder(
                        URI.create(SIMULATOR + "/admin/nodes/" + node + "/faults"))
                        .header("authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                    assertThat(explainCandidates(router).get("sonnet-a100-40g-0")).isEqualTo("eligible"));

            // When a long conversation is served once in a session, the node that served it holds its KV blocks:
            // cache-service indexes them, and the router prefers that node for the same prefix and sticks the session
            String system = "You are the support assistant of a parcel company. Answer with the order id, the current "
                    + "location, the expected delivery date and the next step, in a short table. ".repeat(8);
            String conversation = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":16,\"system\":\"" + system
                    + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Where is order 48213?\"}]}";
            HttpResponse<String> served = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                    .header("content-type", "application/json").header("x-api-key", API_KEY)
                    .header("anthropic-routing-priority", "sonnet").header("anthropic-debug", "route")
                    .header("x-session-id", "fullstack-session")
                    .POST(HttpRequest.BodyPublishers.ofString(conversation)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            String holder = served.headers().firstValue("X-Anthropic-Route").orElseThrow().replaceAll(".*/", "");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                JsonNode explained = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(
                        URI.create(router + "/v1/route/explain")).header("content-type", "application/json")
                        .header("x-api-key", API_KEY).header("anthropic-routing-priority", "sonnet")
                        .header("x-session-id", "fullstack-session")
                        .POST(HttpRequest.BodyPublishers.ofString(conversation)).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
                assertThat(explained.path("node").asString("")).isEqualTo(holder);
                assertThat(explained.path("cache_hit").asBoolean(false)).isTrue();
                JsonNode chosen = null;
                for (JsonNode candidate : explained.path("candidates")) {
                    if (candidate.path("node").asString("").equals(holder)) {
                        chosen = candidate;
                    }
                }
                assertThat(chosen).isNotNull();
                assertThat(chosen.path("terms").path("prefix_share").asDouble()).isGreaterThan(0.9);
                assertThat(chosen.path("terms").path("sticky").asDouble()).isPositive();
            });

            // and two more similar prompts in that session (three in a row) make cache-service send the sticky node a
            // prewarm command, which reaches the simulated node
            for (String question : List.of("Where is order 48214?", "Where is order 48215?")) {
                HttpResponse<String> similar = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                        .header("content-type", "application/json").header("x-api-key", API_KEY)
                        .header("anthropic-routing-priority", "sonnet").header("x-session-id", "fullstack-session")
                        .POST(HttpRequest.BodyPublishers.ofString(conversation.replace("Where is order 48213?",
                                question))).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(similar.statusCode()).as(similar.body()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                JsonNode prewarms = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(
                        URI.create(SIMULATOR + "/admin/prewarms")).build(), HttpResponse.BodyHandlers.ofString()).body());
                assertThat(prewarms.toString()).contains(holder);
            });

            // When an operator changes the policy over fallback-service's API so that the explained prompt's
            // complexity crosses haiku's bound (down to half of it when haiku served it, else just above it)
            HttpResponse<String> current = http.send(HttpRequest.newBuilder(URI.create(FALLBACK + "/v1/policy"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(current.statusCode()).as(current.body()).isEqualTo(200);
            JsonNode before = explain(router);
            String tierBefore = before.path("tier").asString("");
            assertThat(tierBefore).isIn("haiku", "sonnet");
            double complexity = before.path("complexity_score").asDouble();
            String tierAfter = tierBefore.equals("haiku") ? "sonnet" : "haiku";
            double haikuBound = tierBefore.equals("haiku") ? Math.floor(complexity * 50) / 100
                    : Math.min(0.59, Math.ceil(complexity * 100 + 1) / 100);
            tools.jackson.databind.node.ObjectNode document =
                    (tools.jackson.databind.node.ObjectNode) EventCodec.mapper().readTree(current.body());
            ((tools.jackson.databind.node.ObjectNode) document.path("tierTable").get(0)).put("maxComplexity",
                    haikuBound);
            HttpResponse<String> changed = http.send(HttpRequest.newBuilder(URI.create(FALLBACK + "/v1/policy"))
                    .header("content-type", "application/json").header("authorization", "Bearer " + ADMIN_TOKEN)
                    .header("if-match", current.headers().firstValue("ETag").orElseThrow())
                    .PUT(HttpRequest.BodyPublishers.ofString(document.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            long changedAt = System.nanoTime();

            // Then within a second the router routes by it, and reports the new version on its health endpoint
            await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
                    assertThat(explain(router).path("tier").asString("")).isEqualTo(tierAfter));
            System.out.printf("policy change visible in routing %d ms after the PUT answered%n",
                    (System.nanoTime() - changedAt) / 1_000_000);
            JsonNode after = explain(router);
            assertThat(after.path("policy_version").asLong()).isGreaterThan(before.path("policy_version").asLong());
            JsonNode health = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(
                    URI.create(router + "/actuator/health")).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertThat(health.path("components").path("policy").path("details").path("version").asLong())
                    .isEqualTo(after.path("policy_version").asLong());

            // Privacy: conversations carrying a unique marker, through both APIs, streaming and not, count_tokens and
            // explain, leave the marker in no topic, no log line and no metric label
            String marker = "ZLPRIVACY" + Long.toHexString(System.nanoTime());
            for (String[] call : List.of(
                    new String[] {"/v1/messages", "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":8,\"system\":\"sys "
                            + marker + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi " + marker + "\"}]}"},
                    new String[] {"/v1/messages", "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":8,\"stream\":true,"
                            + "\"metadata\":{\"user_id\":\"" + marker + "\"},\"messages\":[{\"role\":\"user\","
                            + "\"content\":[{\"type\":\"text\",\"text\":\"hi " + marker + "\"}]}]}"},
                    new String[] {"/v1/chat/completions", "{\"model\":\"gpt-4o-mini\",\"max_tokens\":8,"
                            + "\"messages\":[{\"role\":\"system\",\"content\":\"" + marker + "\"},{\"role\":\"user\","
                            + "\"content\":\"hi " + marker + "\"}]}"},
                    new String[] {"/v1/chat/completions", "{\"model\":\"gpt-4o-mini\",\"stream\":true,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi " + marker + "\"}]}"},
                    new String[] {"/v1/messages/count_tokens", "{\"model\":\"claude-haiku-4-5\",\"messages\":"
                            + "[{\"role\":\"user\",\"content\":\"" + marker + "\"}]}"},
                    new String[] {"/v1/route/explain", "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":8,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"" + marker + "\"}]}"},
                    new String[] {"/v1/messages", "{\"model\":\"" + marker + "\",\"max_tokens\":\"" + marker
                            + "\",\"messages\":[{\"role\":\"" + marker + "\",\"content\":\"x\"}]}"})) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(router + call[0]))
                        .header("content-type", "application/json").header("x-api-key", API_KEY)
                        .header("x-session-id", marker)
                        .POST(HttpRequest.BodyPublishers.ofString(call[1])).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(call[0] + ": " + response.body()).isIn(200, 400);
            }
            try (KafkaTestClient kafka = new KafkaTestClient("127.0.0.1:" + kafkaPort)) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                        assertThat(kafka.readAll(Topics.ROUTER_DECISIONS).size()).isGreaterThanOrEqualTo(sent.size() + 6));
                for (var topic : dev.zerolayer.platform.topics.ProvisionTopics.allWithDeadLetters()) {
                    for (var record : kafka.readAll(topic.name())) {
                        String text = (record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8))
                                + (record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8));
                        for (var header : record.headers()) {
                            text += header.key() + new String(header.value(), StandardCharsets.UTF_8);
                        }
                        assertThat(text).as("a record on %s", topic.name()).doesNotContain(marker);
                    }
                }
            }
            try (var logs = Files.list(tmp.resolve("data/logs"))) {
                for (Path log : logs.toList()) {
                    assertThat(Files.readString(log)).as(log.toString()).doesNotContain(marker);
                }
            }
            for (int port : List.of(routerPort, 18081, 18082, 18083, 18084, 18085, 18086)) {
                String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertThat(metrics).as("metrics of port %d", port).isNotEmpty().doesNotContain(marker);
            }

            // and every request of the run has its decision event on router.decisions.v1
            Set<String> ids = sent.stream().map(Sent::requestId).collect(Collectors.toSet());
            assertThat(ids).hasSize(sent.size()).doesNotContain("");
            try (KafkaTestClient kafka = new KafkaTestClient("127.0.0.1:" + kafkaPort)) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                    Set<String> published = new HashSet<>();
                    kafka.readAll(Topics.ROUTER_DECISIONS).forEach(record -> published.add(
                            EventCodec.decode(record.value(), RoutingDecision.class).requestId()));
                    assertThat(published).containsAll(ids);
                });
            }

            // and the console shows every simulated node and decisions of this run, from the topics alone
            String console = LauncherProcess.serviceUrl("console-service");
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(console + "/console/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("ZeroLayer console");
            int simulated = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(SIMULATOR
                    + "/admin/nodes")).build(), HttpResponse.BodyHandlers.ofString()).body()).path("nodes").size();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                JsonNode snapshot = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(console
                        + "/console/api/snapshot")).build(), HttpResponse.BodyHandlers.ofString()).body());
                assertThat(snapshot.path("local").asBoolean()).isTrue();
                assertThat(snapshot.path("fleet").path("nodes").size()).isEqualTo(simulated);
                Set<String> shown = new HashSet<>();
                snapshot.path("decisions").forEach(d -> shown.add(d.path("requestId").asString("")));
                assertThat(shown).containsAnyElementsOf(ids);
                // a served decision carries every candidate the router weighed, the served node among them with terms
                boolean weighed = false;
                for (JsonNode d : snapshot.path("decisions")) {
                    for (JsonNode c : d.path("candidates")) {
                        weighed |= "OK".equals(d.path("status").asString("")) && c.path("eligible").asBoolean()
                                && c.path("node").asString("").equals(d.path("node").asString("-"))
                                && c.path("terms").size() > 0;
                    }
                }
                assertThat(weighed).as("a served decision lists its node among the weighed candidates").isTrue();
                assertThat(snapshot.path("policy").path("version").asLong()).isPositive();
            });
        }
    }

    /**
     * Runs {@code scripts/client-suite} (npm ci, then node suite.mjs): every client's cases must pass; npm is required
     * on CI, optional elsewhere. Its results are kept in {@code local-stack/target/client-suite.json}.
     */
    private void clientSuite(String router) throws Exception {
        Path script = ROOT.resolve("scripts/client-suite");
        boolean npm = onPath("npm") && onPath("node");
        if (!npm) {
            assertThat(System.getenv("CI")).as("node and npm are required on CI for the client suite").isNull();
            System.out.println("client suite skipped: node/npm not on PATH");
            return;
        }
        Process install = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(script.toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("npm.log").toFile()).start();
        assertThat(install.waitFor(600, TimeUnit.SECONDS)).as("npm ci finished").isTrue();
        assertThat(install.exitValue()).as("npm ci: %s", Files.readString(tmp.resolve("npm.log"))).isZero();
        Path results = ROOT.resolve("local-stack/target/client-suite.json");
        Files.createDirectories(results.getParent());
        ProcessBuilder suite = new ProcessBuilder("node", "suite.mjs").directory(script.toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("client-suite.log").toFile());
        suite.environment().put("ZEROLAYER_URL", router);
        suite.environment().put("ZEROLAYER_API_KEY", API_KEY);
        suite.environment().put("RESULTS", results.toString());
        suite.environment().put("SIMULATOR_URL", SIMULATOR);
        suite.environment().put("ZEROLAYER_ADMIN_TOKEN", ADMIN_TOKEN);
        Process run = suite.start();
        assertThat(run.waitFor(600, TimeUnit.SECONDS)).as("client suite finished").isTrue();
        String log = Files.readString(tmp.resolve("client-suite.log"));
        System.out.println("client suite:\n" + log);
        assertThat(run.exitValue()).as(log).isZero();
        assertThat(log).contains("\"failed\":0").doesNotContain("FAIL ");
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }

    private record Fault(long atMillis, String node, String type, double intensity) {
    }

    /** Closed-loop non-streaming haiku requests from {@code workers} threads; faults injected at their offsets. */
    private List<Sent> steadyLoad(String router, Duration length, int workers, List<Fault> faults) throws Exception {
        long start = System.nanoTime();
        try (SteadyLoad load = SteadyLoad.start(http, router, API_KEY, workers)) {
            for (Fault fault : faults) {
                long wait = fault.atMillis() - (System.nanoTime() - start) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait); // pacing the scenario, not synchronising on a result
                }
                HttpResponse<String> injected = http.send(HttpRequest.newBuilder(
                        URI.create(SIMULATOR + "/admin/nodes/" + fault.node() + "/faults"))
                        .header("content-type", "application/json").header("authorization", "Bearer " + ADMIN_TOKEN)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"" + fault.type()
                                + "\",\"durationMs\":120000,\"intensity\":" + fault.intensity() + "}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(injected.statusCode()).as(injected.body()).isEqualTo(201);
            }
            long rest = length.toMillis() - (System.nanoTime() - start) / 1_000_000;
            if (rest > 0) {
                Thread.sleep(rest); // the load's duration
            }
            return load.stop();
        }
    }

    private List<String> simulatedNodes() throws Exception {
        JsonNode body = EventCodec.mapper().readTree(http.send(HttpRequest.newBuilder(
                URI.create(SIMULATOR + "/admin/nodes")).build(), HttpResponse.BodyHandlers.ofString()).body());
        List<String> nodes = new ArrayList<>();
        body.path("nodes").forEach(node -> nodes.add(node.path("id").stringValue()));
        return Collections.unmodifiableList(nodes);
    }

    private String nodeState(String node) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(TELEMETRY + "/v1/nodes/" + node))
                .build(), HttpResponse.BodyHandlers.ofString());
        return EventCodec.mapper().readTree(response.body()).path("state").asString("");
    }

    /** The unpinned explained decision of a short, simple prompt. */
    private JsonNode explain(String router) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/route/explain"))
                .header("content-type", "application/json").header("x-api-key", API_KEY)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"explain\"}]}", StandardCharsets.UTF_8))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return EventCodec.mapper().readTree(response.body());
    }

    /** Every candidate node of an explained haiku-pinned decision: "eligible" or its exclusion reason. */
    private Map<String, String> explainCandidates(String router) throws Exception {
        return RouteExplain.haikuCandidates(http, router, API_KEY);
    }
}
