package dev.zerolayer.router.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.fallback.Continuation;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.RouterApplication;
import dev.zerolayer.router.auth.ApiKeyEntries;
import dev.zerolayer.router.auth.ApiKeysFile;
import dev.zerolayer.router.state.SessionKeys;
import dev.zerolayer.router.testing.FakeNode;
import dev.zerolayer.router.testing.FakeNode.Mode;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two router replicas on one broker, both reading one client-keys file and limiting upstream bodies to 512 KB: the
 * replicas decide alike for the same state and input (ties included); a rewritten keys file revokes and adds keys on
 * both without a restart; upstream redirects are never followed; an oversized upstream body fails its attempt and never
 * reaches a client in part; streams on a node that crashes (connections dropped) or freezes (silent, connections open)
 * under load end with an error event within the TTFB limit while non-streaming requests see only 200s; a restarted
 * replica answers a routed request correctly within the startup budget.
 */
@ExtendWith(SharedKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RouterReliabilityIT {

    /** From the start of a replica to its first correct routed answer, on this 2-core CI machine. */
    static final Duration STARTUP_BUDGET = Duration.ofSeconds(30);
    /** Scheduling slack allowed beyond the TTFB limit for a stream on a crashed node to end. */
    static final Duration STREAM_END_MARGIN = Duration.ofSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long DAY_MS = Duration.ofDays(1).toMillis();
    /** Well above one socket read, so an oversized stream has surely started when the limit is passed. */
    private static final int UPSTREAM_LIMIT = 512 * 1024;
    private static final String KEY_A = "zl-a-" + UUID.randomUUID();
    private static final String KEY_B = "zl-b-" + UUID.randomUUID();

    @TempDir
    static Path dir;

    private Path keysFile;
    private String[] routerProperties;
    private KafkaTestClient kafka;
    private RunningService a;
    private RunningService b;
    private volatile String key = KEY_A;

    @BeforeAll
    void startTwoReplicas() throws IOException {
        keysFile = dir.resolve("client-keys");
        writeKeys("# client keys, hashes only", ApiKeyEntries.hashedEntry(KEY_A));
        String servers = SharedKafka.broker().bootstrapServers();
        kafka = new KafkaTestClient(servers);
        routerProperties = new String[] {"zerolayer.router.api-keys-file=" + keysFile,
                "zerolayer.router.max-upstream-response=" + UPSTREAM_LIMIT + "B"};
        // one after the other: parallel starts race in Spring Boot's logging initialisation
        a = RunningService.start(RouterApplication.class, servers, routerProperties);
        b = RunningService.start(RouterApplication.class, servers, routerProperties);
        await().atMost(WAIT).until(() -> a.bean(TopicGuard.class).ready() && b.bean(TopicGuard.class).ready());
    }

    @AfterAll
    void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {a, b, kafka}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                // closing what is left; the tests have their verdicts
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void twoReplicasMakeTheSameDecisionForTheSameStateAndInput() throws Exception {
        try (Scenario s = new Scenario()) {
            // ties: h-tie-b is published before h-tie-a with the same numbers; the id breaks the tie, not the order
            s.node("h-tie-b", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.9, 0.2, 0);
            s.node("h-tie-a", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.9, 0.2, 0);
            s.node("h-busy", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.9, 0.7, 20);
            s.node("h-other", "haiku", "hy", Mode.OK, NodeState.HEALTHY, 0.95, 0.1, 0);
            s.node("h-unavailable", "haiku", "hy", Mode.OK, NodeState.UNAVAILABLE, 0.3, 0.9, 0);
            s.node("s-one", "sonnet", "sx", Mode.OK, NodeState.HEALTHY, 0.85, 0.3, 2);
            s.node("s-degraded", "sonnet", "sx", Mode.OK, NodeState.DEGRADED, 0.75, 0.1, 0);
            // opus's only cluster is below the cluster-health mark (0.4 < 0.70)
            s.node("o-sick", "opus", "ox", Mode.OK, NodeState.DEGRADED, 0.4, 0.2, 0);
            s.policy(Map.of("haiku", List.of("hx", "hy"), "sonnet", List.of("sx"), "opus", List.of("ox")),
                    PolicyDocument.defaults().chains(), new TierLimits(5_000, 15_000));
            s.publish(a, b);

            // prefix-aware scoring: h-tie-b holds the leading blocks of a long prompt
            String longPrompt = ("Summarise the design notes of the routing layer, section by section, keeping every "
                    + "number. ").repeat(12);
            long[] chain = new FastBlockHasher(16, 0).hashChain(
                    TokenCounter.defaultCounter().encode(Conversation.ofUser(longPrompt)).ids());
            Long parent = null;
            for (long block : chain) {
                kafka.publish(Topics.CACHE_KV_INDEX, new KvIndexEntry(UUID.randomUUID().toString(), Instant.now(), 1,
                        block, parent, List.of(s.id("h-tie-b"))));
                parent = block;
            }
            // session stickiness: the session sticks to h-tie-b
            String session = "sess-" + s.run;
            kafka.publish(Topics.CACHE_SESSIONS, new SessionEntry(UUID.randomUUID().toString(), Instant.now(), 1,
                    SessionKeys.sessionHash(session, null, null, null), s.id("h-tie-b"), List.of(), 0));
            String lastBlock = Long.toUnsignedString(chain[chain.length - 1]);
            String sessionHash = SessionKeys.sessionHash(session, null, null, null);
            await().atMost(WAIT).until(() -> a.bean("kvIndex", CompactedView.class).get(lastBlock).isPresent()
                    && b.bean("kvIndex", CompactedView.class).get(lastBlock).isPresent()
                    && a.bean("sessions", CompactedView.class).get(sessionHash).isPresent()
                    && b.bean("sessions", CompactedView.class).get(sessionHash).isPresent());
            // the same state: every view of one replica equals the other's
            await().atMost(WAIT).untilAsserted(() -> {
                for (String view : List.of("nodeHealth", "complexityModel", "kvIndex", "sessions", "fallbackPolicy")) {
                    assertThat(b.bean(view, CompactedView.class).snapshot()).as(view)
                            .isEqualTo(a.bean(view, CompactedView.class).snapshot());
                }
            });

            String complex = "Prove that the sum of the reciprocals of the primes diverges, then derive an asymptotic "
                    + "bound for the partial sums, explain each step rigorously, compare it with Mertens' theorems and "
                    + "discuss the consequences for the distribution of primes in arithmetic progressions. ";
            Map<String, String[]> requests = new LinkedHashMap<>();
            requests.put("short, a tie", new String[] {anthropic("claude-haiku-4-5", "Say hi")});
            requests.put("pinned haiku", new String[] {anthropic("claude-opus-4-1", "Say hi"),
                    "anthropic-routing-priority", "haiku"});
            requests.put("pinned sonnet", new String[] {anthropic("claude-haiku-4-5", "Say hi"),
                    "anthropic-routing-priority", "sonnet"});
            requests.put("pinned opus, its cluster unhealthy", new String[] {anthropic("claude-opus-4-1", "Say hi"),
                    "anthropic-routing-priority", "opus"});
            requests.put("long prompt held by a node", new String[] {anthropic("claude-haiku-4-5", longPrompt),
                    "anthropic-routing-priority", "haiku"});
            requests.put("sticky session", new String[] {anthropic("claude-haiku-4-5", "Say hi"),
                    "x-session-id", session});
            requests.put("complex", new String[] {anthropic("claude-sonnet-4-5", complex)});
            requests.put("complex and long", new String[] {anthropic("claude-sonnet-4-5", complex.repeat(20))});
            requests.put("medium", new String[] {anthropic("claude-sonnet-4-5",
                    "Write a Python function that merges two sorted lists and explain its complexity. ".repeat(8))});

            // no request in flight on either replica: in-flight counts and breakers are each replica's own
            // observations and may legitimately differ under load
            Map<String, JsonNode> decided = new LinkedHashMap<>();
            for (Map.Entry<String, String[]> request : requests.entrySet()) {
                String[] r = request.getValue();
                String[] headers = java.util.Arrays.copyOfRange(r, 1, r.length);
                JsonNode onA = explain(a, r[0], headers);
                JsonNode onB = explain(b, r[0], headers);
                assertThat(onB).as(request.getKey()).isEqualTo(onA);
                decided.put(request.getKey(), onA);
            }
            System.out.printf("replicas: %d decisions compared, all equal%n", decided.size());

            // the inputs were varied: several nodes and tiers chosen, for different reasons
            Set<String> nodes = new LinkedHashSet<>();
            Set<String> tiers = new LinkedHashSet<>();
            decided.values().forEach(d -> {
                nodes.add(d.path("node").asString(""));
                tiers.add(d.path("tier").asString(""));
            });
            assertThat(nodes).hasSizeGreaterThanOrEqualTo(3);
            assertThat(tiers).hasSizeGreaterThanOrEqualTo(2);
            // a true tie, broken by node id on both replicas
            JsonNode tie = decided.get("short, a tie");
            assertThat(tie.path("node").asString()).isEqualTo(s.id("h-tie-a"));
            assertThat(score(tie, s.id("h-tie-a"))).isEqualTo(score(tie, s.id("h-tie-b")));
            assertThat(tie.path("ranked").get(1).asString()).isEqualTo(s.id("h-tie-b"));
            // the prefix and the session break it the other way
            assertThat(decided.get("long prompt held by a node").path("node").asString()).isEqualTo(s.id("h-tie-b"));
            assertThat(decided.get("sticky session").path("node").asString()).isEqualTo(s.id("h-tie-b"));
            // opus's only cluster is below the health mark: the chain's next tier serves
            assertThat(decided.get("pinned opus, its cluster unhealthy").path("tier").asString()).isEqualTo("sonnet");

            // and the requests served: the same route on both replicas
            for (String name : List.of("short, a tie", "pinned sonnet", "long prompt held by a node")) {
                String[] r = requests.get(name);
                List<String> headers = new ArrayList<>(List.of(r).subList(1, r.length));
                headers.addAll(List.of("anthropic-debug", "route"));
                String expected = "%s/%s/%s".formatted(decided.get(name).path("tier").asString(),
                        decided.get(name).path("cluster").asString(), decided.get(name).path("node").asString());
                for (RunningService replica : List.of(a, b)) {
                    HttpResponse<String> served = post(replica, "/v1/messages", r[0], headers.toArray(String[]::new));
                    assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
                    assertThat(served.headers().firstValue("X-Anthropic-Route")).as(name).hasValue(expected);
                }
            }
        }
    }

    @Test
    @Order(2)
    void rewritingTheKeysFileRevokesAndAddsKeysOnEveryReplicaWithoutARestart() throws Exception {
        String body = anthropic("claude-haiku-4-5", "Say hi");
        for (RunningService replica : List.of(a, b)) {
            assertThat(status(replica, body, KEY_A)).isEqualTo(200);
            assertThat(status(replica, body, KEY_B)).isEqualTo(401);
        }
        long applied = a.bean(ApiKeysFile.class).reloads();

        // When the file is rewritten to hold key B only
        long start = System.nanoTime();
        writeKeys("# rotated: B only", ApiKeyEntries.hashedEntry(KEY_B));

        // Then within seconds, on both running replicas, A is refused and B accepted
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() ->
                status(a, body, KEY_A) == 401 && status(b, body, KEY_A) == 401
                        && status(a, body, KEY_B) == 200 && status(b, body, KEY_B) == 200);
        System.out.printf("key rotation: applied on both replicas after %d ms (file polled every 1 s)%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis());
        key = KEY_B;
        // no restart: the same contexts, which read the file once more
        assertThat(a.isActive()).isTrue();
        assertThat(b.isActive()).isTrue();
        assertThat(a.bean(ApiKeysFile.class).reloads()).isEqualTo(applied + 1);

        // A version with a bad line is refused whole: B stays, the new key of that version does not come in
        String keyC = "zl-c-" + UUID.randomUUID();
        writeKeys(ApiKeyEntries.hashedEntry(keyC), "sha256:0123", ApiKeyEntries.hashedEntry(KEY_B));
        await().atMost(Duration.ofSeconds(10)).until(() -> a.bean(ApiKeysFile.class).refusals() == 1
                && b.bean(ApiKeysFile.class).refusals() == 1);
        for (RunningService replica : List.of(a, b)) {
            assertThat(status(replica, body, KEY_B)).isEqualTo(200);
            assertThat(status(replica, body, keyC)).isEqualTo(401);
            assertThat(status(replica, body, KEY_A)).isEqualTo(401);
            assertThat(replica.get("/actuator/prometheus").body())
                    .contains("zerolayer_router_api_keys_file_refused_total")
                    .containsPattern("zerolayer_router_api_keys\\{[^}]*} 1(\\.0)?\\s");
        }

        // a good file again (a later start must find one)
        writeKeys("# B only", ApiKeyEntries.hashedEntry(KEY_B));
        await().atMost(Duration.ofSeconds(10)).until(() -> a.bean(ApiKeysFile.class).reloads() == applied + 2
                && b.bean(ApiKeysFile.class).reloads() == applied + 2);
    }

    @Test
    @Order(3)
    void upstreamRedirectsAreNeverFollowed() throws Exception {
        try (Scenario s = new Scenario(); FakeNode elsewhere = new FakeNode(Mode.OK, false, "reached by a redirect")) {
            String target = elsewhere.baseUrl() + "/v1/messages";
            s.node("h-redirect", "haiku", "hx", Mode.REDIRECT, NodeState.HEALTHY, 0.99, 0.0, 0)
                    .redirectTo(302, target);
            s.node("h-good", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.7, 0.3, 0);
            s.node("s-redirect", "sonnet", "sx", Mode.REDIRECT, NodeState.HEALTHY, 0.99, 0.0, 0)
                    .redirectTo(307, target);
            s.node("s-good", "sonnet", "sx", Mode.OK, NodeState.HEALTHY, 0.7, 0.3, 0);
            s.node("o-redirect", "opus", "ox", Mode.REDIRECT, NodeState.HEALTHY, 0.99, 0.0, 0)
                    .redirectTo(308, target);
            s.policy(Map.of("haiku", List.of("hx"), "sonnet", List.of("sx"), "opus", List.of("ox")),
                    Map.of("haiku", List.of(), "sonnet", List.of(), "opus", List.of()), new TierLimits(5_000, 15_000));
            s.publish(a);

            // a redirect before the first byte is a failed attempt: the next node answers, the client sees a 200
            HttpResponse<String> whole = post(a, "/v1/messages", anthropic("claude-haiku-4-5", "Say hi"),
                    "anthropic-routing-priority", "haiku", "anthropic-debug", "route");
            assertThat(whole.statusCode()).as(whole.body()).isEqualTo(200);
            assertThat(json(whole).path("content").path(0).path("text").asString()).isEqualTo("reply from h-good");
            assertThat(whole.headers().firstValue("X-Anthropic-Fallback-Reason")).hasValue("node_bypass");
            assertThat(whole.headers().firstValue("X-Anthropic-Route")).hasValue("haiku/" + s.cluster("hx") + "/"
                    + s.id("h-good"));

            HttpResponse<String> openAi = post(a, "/v1/chat/completions", "{\"model\":\"gpt-4o\",\"messages\":"
                    + "[{\"role\":\"user\",\"content\":\"Say hi\"}]}", "anthropic-routing-priority", "haiku");
            assertThat(openAi.statusCode()).as(openAi.body()).isEqualTo(200);
            assertThat(json(openAi).path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("reply from h-good");

            HttpResponse<String> stream = post(a, "/v1/messages", anthropicStream("claude-sonnet-4-5", "Say hi"),
                    "anthropic-routing-priority", "sonnet", "anthropic-debug", "route");
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.body()).contains("reply from s-good").endsWith("event: message_stop\ndata: "
                    + "{\"type\":\"message_stop\"}\n\n");
            assertThat(stream.headers().firstValue("X-Anthropic-Route")).hasValue("sonnet/" + s.cluster("sx") + "/"
                    + s.id("s-good"));
            // framed for a kept-alive connection: the stream chunked, a whole answer with its length
            assertThat(stream.headers().firstValue("transfer-encoding")).hasValue("chunked");
            assertThat(stream.headers().firstValue("connection")).isEmpty();
            assertThat(openAi.headers().firstValue("content-length")).hasValue(
                    Integer.toString(openAi.body().getBytes(StandardCharsets.UTF_8).length));
            assertThat(openAi.headers().firstValue("transfer-encoding")).isEmpty();

            // with no other node: 529 in the API's own shape (what any failed attempt gives), never the redirect
            HttpResponse<String> nowhere = post(a, "/v1/messages", anthropic("claude-opus-4-1", "Say hi"),
                    "anthropic-routing-priority", "opus");
            assertThat(nowhere.statusCode()).as(nowhere.body()).isEqualTo(529);
            assertThat(json(nowhere).path("type").asString()).isEqualTo("error");
            assertThat(json(nowhere).path("error").path("type").asString()).isEqualTo("overloaded_error");
            assertThat(nowhere.headers().firstValue("location")).isEmpty();
            assertThat(nowhere.body()).doesNotContain(elsewhere.baseUrl()).doesNotContain("moved");

            // the redirecting nodes were asked, the server they point to never was
            assertThat(s.fake("h-redirect").received()).hasSize(2);
            assertThat(s.fake("s-redirect").received()).hasSize(1);
            assertThat(s.fake("o-redirect").received()).hasSize(1);
            assertThat(elsewhere.received()).isEmpty();
            s.assertNoCredentialsForwarded();
        }
    }

    @Test
    @Order(4)
    void anUpstreamBodyAboveTheLimitFailsItsAttemptAndNeverReachesTheClientInPart() throws Exception {
        try (Scenario s = new Scenario()) {
            s.node("s-big", "sonnet", "sx", Mode.OVERSIZE, NodeState.HEALTHY, 0.99, 0.0, 0)
                    .oversize(UPSTREAM_LIMIT * 4, false);
            s.node("s-big-declared", "sonnet", "sx", Mode.OVERSIZE, NodeState.HEALTHY, 0.9, 0.1, 0)
                    .oversize(UPSTREAM_LIMIT * 4, true);
            s.node("s-good", "sonnet", "sx", Mode.OK, NodeState.HEALTHY, 0.7, 0.3, 0);
            s.node("h-fits", "haiku", "hx", Mode.OVERSIZE, NodeState.HEALTHY, 0.9, 0.1, 0)
                    .oversize(UPSTREAM_LIMIT / 2, false);
            s.policy(Map.of("haiku", List.of("hx"), "sonnet", List.of("sx"), "opus", List.of("ox")),
                    Map.of("haiku", List.of(), "sonnet", List.of(), "opus", List.of()), noContinuation(5_000, 15_000));
            s.publish(a);

            // non-streaming: both oversized answers (streamed in, or announced by Content-Length) fail their
            // attempts; the third node's whole answer comes back
            HttpResponse<String> whole = post(a, "/v1/messages", anthropic("claude-sonnet-4-5", "Say hi"),
                    "anthropic-routing-priority", "sonnet", "anthropic-debug", "route");
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(json(whole).path("content").path(0).path("text").asString()).isEqualTo("reply from s-good");
            assertThat(json(whole).path("stop_reason").asString()).isEqualTo("end_turn");
            assertThat(whole.body()).doesNotContain("xxxxxxxx");
            assertThat(whole.headers().firstValue("X-Anthropic-Fallback-Reason")).hasValue("node_bypass");
            assertThat(s.fake("s-big").received()).hasSize(1);
            assertThat(s.fake("s-big-declared").received()).hasSize(1);

            // an answer within the limit passes whole
            HttpResponse<String> fits = post(a, "/v1/messages", anthropic("claude-haiku-4-5", "Say hi"),
                    "anthropic-routing-priority", "haiku");
            assertThat(fits.statusCode()).isEqualTo(200);
            assertThat(json(fits).path("content").path(0).path("text").asString()).hasSize(UPSTREAM_LIMIT / 2);

            // streaming: the oversized stream has started, so it ends with the API's error event, not a silent cut
            HttpResponse<String> stream = post(a, "/v1/messages", anthropicStream("claude-sonnet-4-5", "Say hi"),
                    "anthropic-routing-priority", "sonnet");
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.body()).startsWith("event: message_start\n").doesNotContain("message_stop")
                    .endsWith("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                            + "\"message\":\"the upstream node failed mid-stream\"}}\n\n");
            assertThat(stream.body().length()).isLessThan(UPSTREAM_LIMIT + 4_096);
        }
    }

    @Test
    @Order(5)
    void streamsOnACrashedNodeEndWithAnErrorEventWithinTheTtfbLimitUnderLoad() throws Exception {
        Duration ttfb = Duration.ofMillis(1_500);
        int streamsPerVictim = 4;
        ExecutorService pool = Executors.newCachedThreadPool();
        try (Scenario s = new Scenario()) {
            // sonnet's best node will crash (connections dropped), opus's will freeze (silent, connections open); each
            // is the smaller part of its cluster, so without it the cluster stays above the health mark (rule 5) and
            // its healthy node serves (with the cluster below the mark, the chain's next tier would)
            FakeNode crashing = s.node("s-victim", "sonnet", "sx", Mode.SLOW_STREAM, NodeState.HEALTHY, 0.99, 0.0, 0,
                    16).slowStream(Duration.ofMillis(100), 600);
            s.node("s-healthy", "sonnet", "sx", Mode.SLOW_STREAM, NodeState.HEALTHY, 0.95, 0.5, 0, 64)
                    .slowStream(Duration.ofMillis(10), 10);
            FakeNode freezing = s.node("o-victim", "opus", "ox", Mode.SLOW_STREAM, NodeState.HEALTHY, 0.99, 0.0, 0, 16)
                    .slowStream(Duration.ofMillis(100), 600);
            s.node("o-healthy", "opus", "ox", Mode.SLOW_STREAM, NodeState.HEALTHY, 0.95, 0.5, 0, 64)
                    .slowStream(Duration.ofMillis(10), 10);
            s.policy(Map.of("haiku", List.of("hx"), "sonnet", List.of("sx"), "opus", List.of("ox")),
                    Map.of("haiku", List.of(), "sonnet", List.of(), "opus", List.of()), noContinuation(1_500, 15_000));
            s.publish(a);

            // Given streams in flight on both victims
            List<StreamClient> streams = new ArrayList<>();
            for (String tier : List.of("sonnet", "opus")) {
                for (int i = 0; i < streamsPerVictim; i++) {
                    StreamClient client = new StreamClient(tier);
                    streams.add(client);
                    pool.submit(client);
                }
            }
            await().atMost(WAIT).until(() -> crashing.streamsInProgress() == streamsPerVictim
                    && freezing.streamsInProgress() == streamsPerVictim
                    && streams.stream().allMatch(c -> c.firstEventAt > 0));

            // and steady non-streaming load on both tiers
            AtomicBoolean loading = new AtomicBoolean(true);
            List<Answer> answers = new CopyOnWriteArrayList<>();
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int worker = w;
                workers.add(pool.submit(() -> {
                    int n = 0;
                    while (loading.get()) {
                        String tier = (n++ + worker) % 2 == 0 ? "sonnet" : "opus";
                        long sent = System.nanoTime();
                        HttpResponse<String> response = post(a, "/v1/messages", anthropic("claude-sonnet-4-5",
                                "Load " + n), "anthropic-routing-priority", tier, "anthropic-debug", "route");
                        answers.add(new Answer(sent, response.statusCode(),
                                response.headers().firstValue("X-Anthropic-Route").orElse(""), response.body()));
                    }
                    return null;
                }));
            }
            await().atMost(WAIT).until(() -> answers.size() >= 6);

            // When both victims fail at once
            long crashAt = System.nanoTime();
            crashing.crash();
            freezing.freeze();

            // Then every stream on them ends, with an error event, within the TTFB limit (plus scheduling slack)
            await().atMost(ttfb.plus(Duration.ofSeconds(10))).until(() -> streams.stream().allMatch(c -> c.endedAt > 0));
            long slowest = 0;
            for (StreamClient client : streams) {
                assertThat(client.failure).as(client.tier).isNull();
                assertThat(client.status).isEqualTo(200);
                assertThat(client.route).endsWith("/" + s.id(client.tier.charAt(0) + "-victim"));
                assertThat(client.lines).first().isEqualTo("event: message_start");
                assertThat(client.body()).doesNotContain("message_stop");
                assertThat(client.body().strip()).endsWith("event: error\ndata: {\"type\":\"error\",\"error\":"
                        + "{\"type\":\"overloaded_error\",\"message\":\"the upstream node failed mid-stream\"}}");
                long took = Duration.ofNanos(client.endedAt - crashAt).toMillis();
                slowest = Math.max(slowest, took);
                assertThat(took).as("%s stream end after the crash", client.tier)
                        .isLessThanOrEqualTo(ttfb.plus(STREAM_END_MARGIN).toMillis());
            }

            // while non-streaming requests go on past the crash and the TTFB limit
            long crashed = crashAt;
            await().atMost(WAIT).until(() -> answers.stream()
                    .filter(x -> x.sentAt - crashed > ttfb.toNanos()).count() >= 6);
            loading.set(false);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
            long afterCrash = answers.stream().filter(x -> x.sentAt > crashed).count();
            System.out.printf("node crash under load: %d streams ended with an error event at most %d ms after the "
                    + "crash (TTFB limit %d ms); %d non-streaming requests, %d after the crash, all 200%n",
                    streams.size(), slowest, ttfb.toMillis(), answers.size(), afterCrash);
            for (Answer answer : answers) {
                assertThat(answer.status).as(answer.body).isEqualTo(200);
                assertThat(answer.body).contains("reply from");
                if (answer.sentAt > crashed) {
                    assertThat(answer.route).doesNotContain("-victim-");
                }
            }

            // and a stream started after the crash is served whole by a healthy node
            for (String tier : List.of("sonnet", "opus")) {
                HttpResponse<String> stream = post(a, "/v1/messages", anthropicStream("claude-sonnet-4-5", "again"),
                        "anthropic-routing-priority", tier, "anthropic-debug", "route");
                assertThat(stream.statusCode()).isEqualTo(200);
                assertThat(stream.headers().firstValue("X-Anthropic-Route").orElse("")).endsWith("-healthy-" + s.run);
                assertThat(stream.body()).endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(6)
    void aRestartedReplicaServesARoutedRequestWithinTheStartupBudget() throws Exception {
        try (Scenario s = new Scenario()) {
            s.node("h-one", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.9, 0.2, 0);
            s.node("h-two", "haiku", "hx", Mode.OK, NodeState.HEALTHY, 0.8, 0.2, 0);
            s.policy(Map.of("haiku", List.of("hx"), "sonnet", List.of("sx"), "opus", List.of("ox")),
                    Map.of("haiku", List.of(), "sonnet", List.of(), "opus", List.of()), new TierLimits(5_000, 15_000));
            s.publish(a, b);
            String body = anthropic("claude-haiku-4-5", "Say hi");
            JsonNode expected = explain(a, body, "anthropic-routing-priority", "haiku");
            assertThat(expected.path("node").asString()).isEqualTo(s.id("h-one"));

            // When replica b stops and starts again
            b.close();
            long start = System.nanoTime();
            b = RunningService.start(RouterApplication.class, SharedKafka.broker().bootstrapServers(),
                    routerProperties);
            long contextUp = System.nanoTime();

            // Then it turns ready once its views are rebuilt from the compacted topics (readiness refuses traffic
            // until then), and its very first routed answer after that is correct, all within the budget
            RunningService restarted = b;
            await().atMost(STARTUP_BUDGET).pollInterval(Duration.ofMillis(100))
                    .until(() -> restarted.get("/actuator/health/readiness").statusCode() == 200);
            long ready = System.nanoTime();
            HttpResponse<String> first = post(restarted, "/v1/messages", body, "anthropic-routing-priority", "haiku",
                    "anthropic-debug", "route");
            long served = System.nanoTime();
            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            assertThat(first.headers().firstValue("X-Anthropic-Route"))
                    .hasValue("haiku/" + s.cluster("hx") + "/" + s.id("h-one"));
            assertThat(json(first).path("content").path(0).path("text").asString()).isEqualTo("reply from h-one");
            System.out.printf("router replica restart: context up after %d ms, ready (views loaded) after %d ms, "
                    + "first routed answer after %d ms (budget %d s)%n", Duration.ofNanos(contextUp - start).toMillis(),
                    Duration.ofNanos(ready - start).toMillis(), Duration.ofNanos(served - start).toMillis(),
                    STARTUP_BUDGET.toSeconds());
            assertThat(Duration.ofNanos(served - start)).isLessThanOrEqualTo(STARTUP_BUDGET);
            JsonNode views = json(restarted.get("/actuator/health")).path("components").path("viewsLoaded");
            assertThat(views.path("status").asString()).isEqualTo("UP");
            assertThat(views.path("details").path("loaded").asBoolean()).isTrue();
            // and decides as the replica that kept running
            assertThat(explain(b, body, "anthropic-routing-priority", "haiku")).isEqualTo(expected);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** One streaming client: reads the event stream line by line and notes when it ended. */
    private final class StreamClient implements Runnable {

        final String tier;
        final List<String> lines = new CopyOnWriteArrayList<>();
        volatile int status;
        volatile String route = "";
        volatile long firstEventAt;
        volatile long endedAt;
        volatile Throwable failure;

        StreamClient(String tier) {
            this.tier = tier;
        }

        String body() {
            return String.join("\n", lines) + "\n";
        }

        @Override
        public void run() {
            try {
                HttpResponse<InputStream> response = http().send(request(a, "/v1/messages",
                        anthropicStream("claude-sonnet-4-5", "A long story").replace("\"max_tokens\":32",
                                "\"max_tokens\":4096"), Duration.ofSeconds(30),
                        "anthropic-routing-priority", tier, "anthropic-debug", "route"),
                        HttpResponse.BodyHandlers.ofInputStream());
                status = response.statusCode();
                route = response.headers().firstValue("X-Anthropic-Route").orElse("");
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        lines.add(line);
                        if (firstEventAt == 0 && line.startsWith("data:")) {
                            firstEventAt = System.nanoTime();
                        }
                    }
                }
            } catch (Exception e) {
                failure = e;
            } finally {
                endedAt = System.nanoTime();
            }
        }
    }

    private record Answer(long sentAt, int status, String route, String body) {
    }

    /**
     * Fake nodes and their node-health records in clusters named for this scenario only, under a policy naming just
     * those clusters; closing it removes the records (tombstones) and stops the nodes.
     */
    private final class Scenario implements AutoCloseable {

        final String run = UUID.randomUUID().toString().substring(0, 8);
        private final Map<String, FakeNode> fakes = new LinkedHashMap<>();
        private final List<NodeHealth> health = new ArrayList<>();
        private FallbackPolicy policy;

        String id(String name) {
            return name + "-" + run;
        }

        String cluster(String name) {
            return name + "-" + run;
        }

        FakeNode fake(String name) {
            return fakes.get(name);
        }

        FakeNode node(String name, String tier, String cluster, Mode mode, NodeState state, double score,
                double load, int queue) throws IOException {
            return node(name, tier, cluster, mode, state, score, load, queue, 64);
        }

        FakeNode node(String name, String tier, String cluster, Mode mode, NodeState state, double score,
                double load, int queue, int capacity) throws IOException {
            FakeNode fake = new FakeNode(mode, false, "reply from " + name);
            fakes.put(name, fake);
            NodeRegistration registration = NodeRegistration.of(id(name), tier, cluster(cluster), null,
                    fake.baseUrl(), UpstreamProtocol.ANTHROPIC, "node-model-" + name, capacity, "test");
            health.add(new NodeHealth(UUID.randomUUID().toString(), Instant.now(), 1, id(name), registration, state,
                    score, List.of(), null, load, queue, 0.1, null, List.of(), 10, false, 1));
            return fake;
        }

        /** Tier clusters and chains as given; node-health records count as fresh for a day (no stale boundary). */
        void policy(Map<String, List<String>> clusters, Map<String, List<String>> chains, TierLimits limits) {
            PolicyDocument d = PolicyDocument.defaults();
            Thresholds t = d.thresholds();
            Thresholds thresholds = t.toBuilder().viewStaleMs(DAY_MS).build();
            List<TierSpec> tiers = new ArrayList<>();
            for (TierSpec spec : d.tiers()) {
                tiers.add(new TierSpec(spec.name(), spec.modelAliases(),
                        clusters.get(spec.name()).stream().map(this::cluster).toList()));
            }
            PolicyDocument document = new PolicyDocument(tiers, d.tierTable(), chains, Map.of(), thresholds,
                    Map.of("haiku", limits, "sonnet", limits, "opus", limits), d.resilience(), Map.of());
            policy = new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1, System.currentTimeMillis(),
                    "test", document);
        }

        @SuppressWarnings("unchecked")
        void publish(RunningService... routers) {
            kafka.publish(Topics.FALLBACK_POLICY, policy);
            health.forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, node));
            for (RunningService router : routers) {
                CompactedView<NodeHealth> view = router.bean("nodeHealth", CompactedView.class);
                CompactedView<FallbackPolicy> policies = router.bean("fallbackPolicy", CompactedView.class);
                await().atMost(WAIT).until(() -> health.stream().allMatch(n -> view.get(n.nodeId()).isPresent())
                        && policies.get(FallbackPolicy.KEY).map(p -> p.version() == policy.version()).orElse(false));
            }
        }

        void assertNoCredentialsForwarded() {
            for (FakeNode node : fakes.values()) {
                for (FakeNode.Received received : node.received()) {
                    assertThat(received.headers().keySet()).noneMatch(h -> h.equalsIgnoreCase("x-api-key")
                            || h.equalsIgnoreCase("authorization"));
                    assertThat(received.body()).doesNotContain(key);
                }
            }
        }

        @Override
        public void close() {
            fakes.values().forEach(FakeNode::close);
            health.forEach(node -> kafka.send(Topics.TELEMETRY_NODE_HEALTH, node.nodeId(), null));
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    private void writeKeys(String... lines) throws IOException {
        Path next = dir.resolve("client-keys.next");
        Files.write(next, List.of(lines));
        Files.move(next, keysFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String anthropic(String model, String text) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":32,\"messages\":[{\"role\":\"user\",\"content\":"
                + EventCodec.mapper().writeValueAsString(text) + "}]}";
    }

    private static String anthropicStream(String model, String text) {
        return anthropic(model, text).replace("\"max_tokens\":32,", "\"max_tokens\":32,\"stream\":true,");
    }

    /** A fresh connection per request (as the other router ITs: pooled ones stall now and then on this machine). */
    private static HttpClient http() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private HttpRequest request(RunningService router, String path, String body, Duration timeout,
            String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router.baseUrl() + path)).timeout(timeout)
                .header("content-type", "application/json").header("x-api-key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request.build();
    }

    private HttpResponse<String> post(RunningService router, String path, String body, String... headers)
            throws IOException, InterruptedException {
        return http().send(request(router, path, body, Duration.ofSeconds(30), headers),
                HttpResponse.BodyHandlers.ofString());
    }

    private int status(RunningService router, String body, String apiKey) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/route/explain"))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                .header("x-api-key", apiKey).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The decision as {@code /v1/route/explain} shows it, without what differs per call (request id, timing). */
    private JsonNode explain(RunningService router, String body, String... headers) throws Exception {
        HttpResponse<String> response = post(router, "/v1/route/explain", body, headers);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        ObjectNode decision = (ObjectNode) json(response);
        decision.remove("request_id");
        decision.remove("route_time_ms");
        return decision;
    }

    private static double score(JsonNode decision, String node) {
        for (JsonNode candidate : decision.path("candidates")) {
            if (candidate.path("node").asString("").equals(node)) {
                return candidate.path("score").asDouble();
            }
        }
        throw new AssertionError("no candidate " + node);
    }

    private static JsonNode json(HttpResponse<String> response) {
        return EventCodec.mapper().readTree(response.body());
    }

    /**
     * Tier limits with mid-stream continuation off: these checks are about how a stream the router cannot continue
     * ends (the continued stream is checked in GatewayIT and SeamTest).
     */
    private static TierLimits noContinuation(long ttfbLimitMs, long deadlineMs) {
        return new TierLimits(ttfbLimitMs, deadlineMs, null, null, Continuation.off());
    }
}
