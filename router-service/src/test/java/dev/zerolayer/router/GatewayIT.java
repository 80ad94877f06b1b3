package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.testing.FakeNode;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import dev.zerolayer.router.testing.FakeNode.Mode;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * The gateway end to end against the real broker and real local HTTP nodes it learns from node-health records: tier
 * routing, pins, explain, route/trace headers, bypass on 500/refused/TTFB timeout without a client-visible error, a
 * cut stream continued on the tier's other node, translation, API-shaped errors, one decision event per request without
 * prompt text, 529 when nothing can serve, and 401/413/429 with keys configured.
 */
@ExtendWith(SharedKafka.class)
class GatewayIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final String SECRET = "PROMPT-MARKER-7f3a";

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    private static HttpResponse<String> post(RunningService service, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        boolean typed = false;
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
            typed |= headers[i].equalsIgnoreCase("content-type");
        }
        if (!typed) {
            request.header("content-type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return EventCodec.mapper().readTree(response.body());
    }

    private static String anthropic(String model, boolean stream, String text) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":32,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    private static String openAi(String model, boolean stream, String text) {
        return "{\"model\":\"" + model + "\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    static NodeHealth health(String node, String tier, String cluster, String url, UpstreamProtocol protocol,
            NodeState state, double score, double load) {
        NodeRegistration registration = NodeRegistration.of(node, tier, cluster, null, url, protocol,
                "node-model-" + node, 8, "test");
        return new NodeHealth(UUID.randomUUID().toString(), Instant.now(), 1, node, registration, state, score,
                List.of(), null, load, 0, 0.1, null, List.of(), 10, false, 1);
    }

    static FallbackPolicy policy(String run) {
        return policy(run, RefusalFallback.defaults(), System.currentTimeMillis());
    }

    static FallbackPolicy policy(String run, RefusalFallback refusal, long version) {
        PolicyDocument d = PolicyDocument.defaults();
        // sonnet's short TTFB limit makes the hanging node's bypass quick; haiku's and opus's leave room for the
        // first requests' warm-up (connection pool, class loading) on a loaded machine
        TierLimits limits = new TierLimits(600, 10_000);
        TierLimits roomy = new TierLimits(5_000, 10_000);
        PolicyDocument document = new PolicyDocument(
                List.of(new TierSpec("haiku", d.tiers().get(0).modelAliases(), List.of("h-" + run)),
                        new TierSpec("sonnet", d.tiers().get(1).modelAliases(), List.of("s-" + run)),
                        new TierSpec("opus", d.tiers().get(2).modelAliases(), List.of("o-" + run))),
                // node records stay fresh however slowly the machine runs the test (none is re-published)
                d.tierTable(), d.chains(), Map.of(), d.thresholds().toBuilder().viewStaleMs(600_000).build(),
                Map.of("haiku", roomy, "sonnet", limits, "opus", roomy), d.resilience(), Map.of(), refusal,
                d.alerting());
        return new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1, version, "test", document);
    }

    private static String refusedUrl() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    private static String traceparentOf(KafkaTestClient kafka, String requestId) {
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.ROUTER_DECISIONS)) {
            if (record.key() != null && new String(record.key(), StandardCharsets.UTF_8).equals(requestId)) {
                return KafkaTestClient.header(record, "traceparent");
            }
        }
        return null;
    }

    private static RoutingDecision decision(KafkaTestClient kafka, String requestId) {
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.ROUTER_DECISIONS)) {
            if (record.key() != null && new String(record.key(), StandardCharsets.UTF_8).equals(requestId)) {
                assertThat(new String(record.value(), StandardCharsets.UTF_8)).doesNotContain(SECRET);
                return EventCodec.decode(record.value(), RoutingDecision.class);
            }
        }
        return null;
    }

    @Test
    @SuppressWarnings("unchecked")
    void routesBypassesStreamsTranslatesExplainsAndPublishesADecisionPerRequest() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String h = "h-" + run;
        String s = "s-" + run;
        String o = "o-" + run;
        Map<String, FakeNode> fakes = new LinkedHashMap<>();
        List<NodeHealth> fleet = new ArrayList<>();
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            fakes.put("hA-" + run, new FakeNode(Mode.OK, false, "hello from hA"));
            fakes.put("hB-" + run, new FakeNode(Mode.OK, false, "hello from hB"));
            fakes.put("s500-" + run, new FakeNode(Mode.FAIL_500, false, "x"));
            fakes.put("sHang-" + run, new FakeNode(Mode.HANG, false, "x"));
            fakes.put("sOk-" + run, new FakeNode(Mode.OK, false, "hello from sOk"));
            fakes.put("oCut-" + run, new FakeNode(Mode.CUT_STREAM, false, "partial"));
            fakes.put("oOai-" + run, new FakeNode(Mode.OK, true, "hello from oOai"));
            fakes.put("oRef-" + run, new FakeNode(Mode.OK, false, "I'm sorry, but I can't help with that."));
            fleet.add(health("hA-" + run, "haiku", h, fakes.get("hA-" + run).baseUrl(), UpstreamProtocol.ANTHROPIC,
                    NodeState.HEALTHY, 0.95, 0.1));
            fleet.add(health("hB-" + run, "haiku", h, fakes.get("hB-" + run).baseUrl(), UpstreamProtocol.ANTHROPIC,
                    NodeState.HEALTHY, 0.5, 0.6));
            fleet.add(health("s500-" + run, "sonnet", s, fakes.get("s500-" + run).baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.99, 0.0));
            fleet.add(health("sRef-" + run, "sonnet", s, refusedUrl(), UpstreamProtocol.ANTHROPIC,
                    NodeState.HEALTHY, 0.95, 0.05));
            fleet.add(health("sHang-" + run, "sonnet", s, fakes.get("sHang-" + run).baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.9, 0.1));
            fleet.add(health("sOk-" + run, "sonnet", s, fakes.get("sOk-" + run).baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.6, 0.3));
            fleet.add(health("oCut-" + run, "opus", o, fakes.get("oCut-" + run).baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.9, 0.1));
            fleet.add(health("oOai-" + run, "opus", o, fakes.get("oOai-" + run).baseUrl(), UpstreamProtocol.OPENAI,
                    NodeState.HEALTHY, 0.9, 0.1));
            // a second opus cluster, used once the first is down: its one node refuses everything
            fleet.add(health("oRef-" + run, "opus", "r-" + run, fakes.get("oRef-" + run).baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.95, 0.1));
            FallbackPolicy policy = policy(run);
            try (RunningService service = RunningService.start(RouterApplication.class, servers())) {
                // The router creates its topics at start; then the fleet and the policy arrive
                await().atMost(WAIT).until(() -> service.bean(dev.zerolayer.platform.topics.TopicGuard.class).ready());
                kafka.publish(Topics.FALLBACK_POLICY, policy);
                fleet.forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, node));
                CompactedView<NodeHealth> view = service.bean("nodeHealth", CompactedView.class);
                CompactedView<FallbackPolicy> policies = service.bean("fallbackPolicy", CompactedView.class);
                await().atMost(WAIT).until(() -> fleet.stream().allMatch(n -> view.get(n.nodeId()).isPresent())
                        && policies.get(FallbackPolicy.KEY).map(p -> p.version() == policy.version()).orElse(false));

                // A short simple prompt goes to haiku's best node; headers, trace object and model as asked
                HttpResponse<String> simple = post(service, "/v1/messages",
                        anthropic("claude-sonnet-4-5", false, "Say hi " + SECRET),
                        "anthropic-debug", "route", "anthropic-trace", "true", "x-api-key", "client-secret",
                        "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                        "x-session-id", "sess-1");
                assertThat(simple.statusCode()).isEqualTo(200);
                assertThat(simple.headers().firstValue("X-Anthropic-Trace-ID"))
                        .hasValue("4bf92f3577b34da6a3ce929d0e0e4736");
                assertThat(simple.headers().firstValue("X-Anthropic-Route")).hasValue("haiku/" + h + "/hA-" + run);
                assertThat(simple.headers().firstValue("X-Anthropic-Fallback-Reason")).isEmpty();
                JsonNode body = json(simple);
                assertThat(body.path("model").stringValue()).isEqualTo("claude-sonnet-4-5");
                assertThat(body.path("content").path(0).path("text").stringValue()).isEqualTo("hello from hA");
                assertThat(body.path("debug").path("tier").stringValue()).isEqualTo("haiku");
                assertThat(body.path("debug").path("node").stringValue()).isEqualTo("hA-" + run);
                assertThat(body.path("debug").path("fallback_triggered").booleanValue()).isFalse();
                assertThat(body.path("debug").path("token_count").intValue()).isPositive();
                assertThat(body.path("debug").has("complexity_score")).isTrue();
                FakeNode.Received received = fakes.get("hA-" + run).received().get(0);
                assertThat(received.body()).contains("\"model\":\"node-model-hA-" + run + "\"").contains(SECRET);
                assertThat(received.headers().keySet()).noneMatch(k -> k.equalsIgnoreCase("x-api-key")
                        || k.equalsIgnoreCase("authorization"));
                String simpleId = simple.headers().firstValue("request-id").orElseThrow();
                // The trace continues upstream: the node sees the caller's trace id under the router's span
                assertThat(received.headers().entrySet()).anySatisfy(header -> {
                    assertThat(header.getKey()).isEqualToIgnoringCase("traceparent");
                    assertThat(String.valueOf(header.getValue()))
                            .matches(".*00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01.*")
                            .doesNotContain("00f067aa0ba902b7");
                });

                // Pinned to sonnet: 500, refused and a hang past TTFB are bypassed; the client sees only success
                HttpResponse<String> bypassed = post(service, "/v1/messages",
                        anthropic("claude-haiku-4-5", false, "Hello " + SECRET),
                        "anthropic-routing-priority", "sonnet", "anthropic-debug", "route");
                assertThat(bypassed.statusCode()).isEqualTo(200);
                assertThat(json(bypassed).path("content").path(0).path("text").stringValue())
                        .isEqualTo("hello from sOk");
                assertThat(json(bypassed).path("model").stringValue()).isEqualTo("claude-haiku-4-5");
                assertThat(bypassed.headers().firstValue("X-Anthropic-Fallback-Reason")).hasValue("node_bypass");
                assertThat(bypassed.headers().firstValue("X-Anthropic-Route")).hasValue("sonnet/" + s + "/sOk-" + run);
                String bypassId = bypassed.headers().firstValue("request-id").orElseThrow();

                // Pinned to opus, streaming: the node cuts the stream after its first block began; the router goes on
                // on the tier's next node (the same-API one of the standby cluster ranks before the OpenAI one),
                // spliced into the same message: one start, one block, one end, no error
                HttpResponse<String> cut = post(service, "/v1/messages",
                        anthropic("claude-opus-4-1", true, "Stream " + SECRET),
                        "anthropic-routing-priority", "opus", "anthropic-trace", "true");
                assertThat(cut.statusCode()).isEqualTo(200);
                assertThat(cut.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
                assertThat(cut.body()).startsWith("event: message_start\n")
                        .contains("\"model\":\"claude-opus-4-1\"").contains("\"debug\":{")
                        .contains("\"node\":\"oCut-" + run + "\"")
                        .contains("\"text\":\"I'm sorry, but I can't help with that.\"").doesNotContain("event: error")
                        .endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
                assertThat(cut.body().split("event: message_start", -1)).hasSize(2);
                assertThat(cut.body()).doesNotContain("\"index\":1");
                String cutId = cut.headers().firstValue("request-id").orElseThrow();

                // The same for a client that wants the answer whole: the node cuts it, the router goes on on the next
                // node into the same message, and the client sees one whole answer
                HttpResponse<String> cutWhole = post(service, "/v1/messages",
                        anthropic("claude-opus-4-1", false, "Whole " + SECRET), "anthropic-routing-priority", "opus");
                assertThat(cutWhole.statusCode()).isEqualTo(200);
                assertThat(json(cutWhole).path("content")).hasSize(1);
                assertThat(json(cutWhole).path("content").path(0).path("text").stringValue())
                        .isEqualTo("I'm sorry, but I can't help with that.");
                assertThat(json(cutWhole).path("stop_reason").stringValue()).isEqualTo("end_turn");
                String cutWholeId = cutWhole.headers().firstValue("request-id").orElseThrow();

                // OpenAI client, streaming, pinned to opus: the OpenAI node's stream passes through with the asked model
                HttpResponse<String> oaStream = post(service, "/v1/chat/completions",
                        openAi("gpt-asked", true, "Stream " + SECRET), "anthropic-routing-priority", "opus");
                assertThat(oaStream.statusCode()).isEqualTo(200);
                assertThat(oaStream.body()).contains("\"model\":\"gpt-asked\"").contains("hello from oOai")
                        .doesNotContain("node-model").endsWith("data: [DONE]\n\n");

                // OpenAI client pinned to haiku, where only Anthropic nodes are: translated both ways
                HttpResponse<String> translated = post(service, "/v1/chat/completions",
                        openAi("gpt-asked", false, "Hi " + SECRET), "anthropic-routing-priority", "haiku");
                assertThat(translated.statusCode()).isEqualTo(200);
                JsonNode completion = json(translated);
                assertThat(completion.path("object").stringValue()).isEqualTo("chat.completion");
                assertThat(completion.path("model").stringValue()).isEqualTo("gpt-asked");
                assertThat(completion.path("choices").path(0).path("message").path("content").stringValue())
                        .isEqualTo("hello from hA");

                // Explain: the decision without an upstream call
                int sonnetCalls = fakes.get("s500-" + run).received().size();
                HttpResponse<String> explain = post(service, "/v1/route/explain",
                        anthropic("claude-haiku-4-5", false, "Explain " + SECRET), "anthropic-routing-priority",
                        "sonnet");
                assertThat(explain.statusCode()).isEqualTo(200);
                JsonNode explained = json(explain);
                assertThat(explained.path("tier").stringValue()).isEqualTo("sonnet");
                assertThat(explained.path("cluster").stringValue()).isEqualTo(s);
                assertThat(explained.path("rules_fired").toString()).contains("pin:sonnet");
                assertThat(explained.path("candidates").toString()).contains("sOk-" + run).contains("\"terms\":{");
                assertThat(explained.path("token_count").intValue()).isPositive();
                // the complexity score's strongest drivers, by feature name (no prompt text)
                assertThat(explained.path("complexity_drivers").size()).isBetween(1, 5);
                assertThat(explained.path("complexity_drivers").path(0).path("feature").stringValue()).isNotBlank();
                assertThat(explained.path("complexity_drivers").toString()).doesNotContain(SECRET);
                // what would save its answer: continuation on (the default), no hedge (off by default)
                assertThat(explained.path("recovery").path("continuation").booleanValue()).isTrue();
                assertThat(explained.path("recovery").path("chunk_gap_ms").longValue()).isEqualTo(600);
                assertThat(explained.path("recovery").path("hedge").booleanValue()).isFalse();
                assertThat(explained.path("recovery").path("hedge_delay_ms").isNull()).isTrue();
                assertThat(fakes.get("s500-" + run).received()).hasSize(sonnetCalls);

                // count_tokens
                HttpResponse<String> count = post(service, "/v1/messages/count_tokens",
                        "{\"model\":\"claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"one two\"}]}");
                assertThat(count.statusCode()).isEqualTo(200);
                assertThat(json(count).path("input_tokens").intValue()).isPositive();

                // Errors in each API's shape
                HttpResponse<String> badPin = post(service, "/v1/messages", anthropic("m", false, "x"),
                        "anthropic-routing-priority", "Opus");
                assertThat(badPin.statusCode()).isEqualTo(400);
                assertThat(json(badPin).path("error").path("message").stringValue()).contains("haiku|sonnet|opus");
                assertThat(json(badPin).path("type").stringValue()).isEqualTo("error");
                assertThat(badPin.headers().firstValue("X-Anthropic-Trace-ID")).isPresent();
                HttpResponse<String> malformed = post(service, "/v1/messages", "{\"model\":");
                assertThat(malformed.statusCode()).isEqualTo(400);
                assertThat(json(malformed).path("error").path("type").stringValue())
                        .isEqualTo("invalid_request_error");
                HttpResponse<String> oaMissing = post(service, "/v1/chat/completions", "{\"model\":\"g\"}");
                assertThat(oaMissing.statusCode()).isEqualTo(400);
                assertThat(json(oaMissing).path("error").path("param").isNull()).isTrue();
                assertThat(json(oaMissing).path("error").path("message").stringValue()).contains("messages");
                HttpResponse<String> unknown = post(service, "/v1/nope", "{}");
                assertThat(unknown.statusCode()).isEqualTo(404);
                assertThat(json(unknown).path("error").path("type").stringValue()).isEqualTo("not_found_error");
                // a path of neither API from an OpenAI client (bearer token, no anthropic-version): OpenAI's shape
                HttpResponse<String> embeddings = post(service, "/v1/embeddings", "{\"input\":\"x\"}",
                        "authorization", "Bearer sk-test");
                assertThat(embeddings.statusCode()).isEqualTo(404);
                assertThat(json(embeddings).has("type")).isFalse();
                assertThat(json(embeddings).path("error").path("message").stringValue()).contains("/v1/embeddings");
                HttpResponse<String> anthropicUnknown = post(service, "/v1/files", "{}", "authorization",
                        "Bearer sk-test", "anthropic-version", "2023-06-01");
                assertThat(json(anthropicUnknown).path("type").stringValue()).isEqualTo("error");
                HttpResponse<String> textPlain = post(service, "/v1/messages", anthropic("m", false, "x"),
                        "content-type", "text/plain");
                assertThat(textPlain.statusCode()).isEqualTo(415);
                assertThat(textPlain.body()).doesNotContain("Exception").doesNotContain("at dev.");

                // One decision event per request, with the expected fields and no prompt text
                await().atMost(WAIT).untilAsserted(() -> {
                    RoutingDecision first = decision(kafka, simpleId);
                    assertThat(first).isNotNull();
                    assertThat(traceparentOf(kafka, simpleId)).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-");
                    assertThat(first.tier()).isEqualTo("haiku");
                    assertThat(first.node()).isEqualTo("hA-" + run);
                    assertThat(first.clientApi()).isEqualTo("anthropic");
                    assertThat(first.requestedModel()).isEqualTo("claude-sonnet-4-5");
                    assertThat(first.status()).isEqualTo(DecisionStatus.OK);
                    assertThat(first.httpStatus()).isEqualTo(200);
                    assertThat(first.outputTokens()).isEqualTo(3);
                    assertThat(first.sessionHash()).hasSize(32).doesNotContain("sess-1");
                    assertThat(first.rulesFired()).isNotEmpty();
                    RoutingDecision bypass = decision(kafka, bypassId);
                    assertThat(bypass).isNotNull();
                    assertThat(bypass.nodesTried()).containsExactly("s500-" + run, "sRef-" + run, "sHang-" + run,
                            "sOk-" + run);
                    assertThat(bypass.fallbackReason()).isEqualTo("node_bypass");
                    RoutingDecision stream = decision(kafka, cutId);
                    assertThat(stream).isNotNull();
                    assertThat(stream.status()).isEqualTo(DecisionStatus.OK);
                    assertThat(stream.streaming()).isTrue();
                    assertThat(stream.nodesTried()).containsExactly("oCut-" + run, "oRef-" + run);
                    assertThat(stream.node()).isEqualTo("oRef-" + run);
                    assertThat(stream.fallbackReason()).isNotEqualTo("node_bypass");
                    assertThat(stream.recoveries()).singleElement().satisfies(recovery -> {
                        assertThat(recovery.kind()).isEqualTo(Recovery.Kind.CONTINUED);
                        assertThat(recovery.fromNode()).isEqualTo("oCut-" + run);
                        assertThat(recovery.toNode()).isEqualTo("oRef-" + run);
                        assertThat(recovery.tokenOffset()).isZero();
                    });
                    RoutingDecision whole = decision(kafka, cutWholeId);
                    assertThat(whole).isNotNull();
                    assertThat(whole.status()).isEqualTo(DecisionStatus.OK);
                    assertThat(whole.streaming()).isFalse();
                    assertThat(whole.nodesTried()).containsExactly("oCut-" + run, "oRef-" + run);
                    assertThat(whole.node()).isEqualTo("oRef-" + run);
                    assertThat(whole.recoveries()).singleElement().satisfies(recovery -> {
                        assertThat(recovery.kind()).isEqualTo(Recovery.Kind.CONTINUED);
                        assertThat(recovery.fromNode()).isEqualTo("oCut-" + run);
                        assertThat(recovery.toNode()).isEqualTo("oRef-" + run);
                    });
                });

                // Prefix-aware: once the KV index says hB holds the prompt's blocks, hB wins over the healthier hA
                String longPrompt = ("Summarise the quarterly figures of region " + run + " in a table. ").repeat(12);
                long[] chain = new FastBlockHasher(16, 0).hashChain(
                        TokenCounter.defaultCounter().encode(Conversation.ofUser(longPrompt)).ids());
                assertThat(chain.length).isGreaterThan(4);
                HttpResponse<String> cold = post(service, "/v1/route/explain",
                        anthropic("claude-haiku-4-5", false, longPrompt), "anthropic-routing-priority", "haiku");
                assertThat(json(cold).path("node").stringValue()).isEqualTo("hA-" + run);
                assertThat(json(cold).path("cache_hit").booleanValue()).isFalse();
                CompactedView<KvIndexEntry> kvView = service.bean("kvIndex", CompactedView.class);
                Long parent = null;
                for (long block : chain) {
                    kafka.publish(Topics.CACHE_KV_INDEX, new KvIndexEntry(UUID.randomUUID().toString(),
                            Instant.now(), 1, block, parent, List.of("hB-" + run)));
                    parent = block;
                }
                await().atMost(WAIT).until(() -> kvView.get(Long.toUnsignedString(chain[chain.length - 1]))
                        .isPresent());
                HttpResponse<String> warm = post(service, "/v1/route/explain",
                        anthropic("claude-haiku-4-5", false, longPrompt), "anthropic-routing-priority", "haiku");
                JsonNode warmBody = json(warm);
                assertThat(warmBody.path("node").stringValue()).isEqualTo("hB-" + run);
                assertThat(warmBody.path("cache_hit").booleanValue()).isTrue();
                assertThat(warmBody.path("candidates").toString()).contains("\"prefix_share\":1.0");

                // Approximate: haiku's nodes now declare vLLM prefix caching with a tokenizer that cannot load, so
                // they are matched on what this router sent them (never on the engine's index), and health says why
                PrefixCaching unloadable = new PrefixCaching("/nowhere/" + run, 16, PrefixCaching.VLLM_SHA256_CBOR, "1");
                for (String node : List.of("hA-" + run, "hB-" + run)) {
                    NodeHealth was = fleet.stream().filter(n -> n.nodeId().equals(node)).findFirst().orElseThrow();
                    kafka.publish(Topics.TELEMETRY_NODE_HEALTH, new NodeHealth(UUID.randomUUID().toString(),
                            Instant.now(), 1, node, was.registration().withPrefixCache(unloadable), was.state(),
                            was.score(), List.of(), null, was.load(), 0, 0.1, null, List.of(), 10, false, 1));
                }
                await().atMost(WAIT).until(() -> List.of("hA-" + run, "hB-" + run).stream().allMatch(node -> view
                        .get(node).map(n -> n.registration().prefixCache() != null).orElse(false)));
                String notes = ("Draft the release notes of build " + run + " for the operators. ").repeat(12);
                HttpResponse<String> sent = post(service, "/v1/messages", anthropic("claude-haiku-4-5", false, notes),
                        "anthropic-routing-priority", "haiku", "anthropic-debug", "route");
                assertThat(sent.statusCode()).isEqualTo(200);
                String route = sent.headers().firstValue("X-Anthropic-Route").orElseThrow();
                String servedBy = route.substring(route.lastIndexOf('/') + 1);
                assertThat(servedBy).isIn("hA-" + run, "hB-" + run);
                String other = servedBy.equals("hA-" + run) ? "hB-" + run : "hA-" + run;
                await().atMost(WAIT).untilAsserted(() -> {
                    JsonNode again = json(post(service, "/v1/route/explain",
                            anthropic("claude-haiku-4-5", false, notes), "anthropic-routing-priority", "haiku"));
                    Map<String, JsonNode> byNode = new LinkedHashMap<>();
                    again.path("candidates").forEach(c -> byNode.put(c.path("node").stringValue(), c));
                    assertThat(byNode.get(servedBy).path("prefix_match").stringValue()).isEqualTo("approximate");
                    assertThat(byNode.get(servedBy).path("prefix_inexact").stringValue()).startsWith("tokenizer");
                    assertThat(byNode.get(servedBy).path("terms").path("prefix_share").doubleValue()).isEqualTo(1.0);
                    assertThat(byNode.get(other).path("terms").path("prefix_share").doubleValue()).isZero();
                });
                await().atMost(WAIT).untilAsserted(() -> {
                    JsonNode served = json(service.get("/actuator/health")).path("components").path("servedModels")
                            .path("details").path("/nowhere/" + run);
                    assertThat(served.path("state").stringValue()).isEqualTo("failed");
                    assertThat(served.path("nodes").toString()).contains("hA-" + run, "hB-" + run);
                });

                // Refusal fallback: with opus's first cluster down, opus-pinned requests reach the refusing node
                for (String down : List.of("oCut-" + run, "oOai-" + run)) {
                    NodeHealth node = fleet.stream().filter(n -> n.nodeId().equals(down)).findFirst().orElseThrow();
                    kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(down, "opus", o,
                            node.registration().upstreamBaseUrl(), node.registration().protocol(), NodeState.DOWN,
                            0.0, 0.0));
                }
                await().atMost(WAIT).until(() -> view.get("oCut-" + run).map(n -> n.state() == NodeState.DOWN)
                        .orElse(false) && view.get("oOai-" + run).map(n -> n.state() == NodeState.DOWN).orElse(false));
                String refusedText = "I'm sorry, but I can't help with that.";
                // off (the default): the refusal passes through untouched
                HttpResponse<String> off = post(service, "/v1/messages", anthropic("claude-opus-4-1", false, "Q"),
                        "anthropic-routing-priority", "opus");
                assertThat(json(off).path("content").path(0).path("text").stringValue()).isEqualTo(refusedText);
                // annotate: the policy's prefix explains it
                FallbackPolicy annotate = policy(run, new RefusalFallback(RefusalFallback.Mode.ANNOTATE, "[note] "),
                        policy.version() + 1);
                kafka.publish(Topics.FALLBACK_POLICY, annotate);
                await().atMost(WAIT).until(() -> policies.get(FallbackPolicy.KEY)
                        .map(p -> p.version() == annotate.version()).orElse(false));
                HttpResponse<String> annotated = post(service, "/v1/chat/completions",
                        openAi("gpt-asked", false, "Q"), "anthropic-routing-priority", "opus");
                assertThat(json(annotated).path("choices").path(0).path("message").path("content").stringValue())
                        .isEqualTo("[note] " + refusedText);
                // retry_next_tier: once more on opus's next tier (sonnet), whose bypass ends at sOk
                FallbackPolicy retry = policy(run, new RefusalFallback(RefusalFallback.Mode.RETRY_NEXT_TIER, null),
                        policy.version() + 2);
                kafka.publish(Topics.FALLBACK_POLICY, retry);
                await().atMost(WAIT).until(() -> policies.get(FallbackPolicy.KEY)
                        .map(p -> p.version() == retry.version()).orElse(false));
                HttpResponse<String> retried = post(service, "/v1/messages", anthropic("claude-opus-4-1", false, "Q"),
                        "anthropic-routing-priority", "opus", "anthropic-debug", "route", "anthropic-trace", "true");
                assertThat(retried.statusCode()).isEqualTo(200);
                JsonNode retriedBody = json(retried);
                assertThat(retriedBody.path("content").path(0).path("text").stringValue()).isEqualTo("hello from sOk");
                assertThat(retriedBody.path("model").stringValue()).isEqualTo("claude-opus-4-1");
                assertThat(retriedBody.path("debug").path("refusal").stringValue()).isEqualTo("retried:opus->sonnet");
                assertThat(retried.headers().firstValue("X-Anthropic-Fallback-Reason")).hasValue("refusal_fallback");

                // Every node DOWN: nothing can serve, 529 overloaded_error
                fleet.forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(node.nodeId(),
                        node.registration().tier(), node.registration().cluster(),
                        node.registration().upstreamBaseUrl(), node.registration().protocol(), NodeState.DOWN, 0.0,
                        0.0)));
                await().atMost(WAIT).until(() -> fleet.stream()
                        .allMatch(n -> view.get(n.nodeId()).map(x -> x.state() == NodeState.DOWN).orElse(false)));
                HttpResponse<String> overloaded = post(service, "/v1/messages", anthropic("m", false, "x"),
                        "anthropic-routing-priority", "haiku");
                assertThat(overloaded.statusCode()).isEqualTo(529);
                assertThat(json(overloaded).path("error").path("type").stringValue()).isEqualTo("overloaded_error");

                assertThat(service.get("/actuator/prometheus").body())
                        .contains("zerolayer_requests_total{api=\"anthropic\"")
                        .contains("zerolayer_route_total{cluster=\"" + h + "\"")
                        .contains("zerolayer_route_time_seconds_bucket")
                        .contains("zerolayer_fallback_total{reason=\"node_bypass\"")
                        .contains("zerolayer_upstream_ttfb_seconds")
                        .containsPattern("resilience4j_circuitbreaker_state\\{[^}]*name=\"node-s500-" + run + "\"")
                        .containsPattern("resilience4j_bulkhead_available_concurrent_calls\\{[^}]*name=\"node-s500-" + run
                                + "\"")
                        .contains("zerolayer_router_events_dropped_total");
            } finally {
                // the shared broker outlives this test: no node of it may take part in another test's decisions
                fleet.forEach(node -> kafka.send(Topics.TELEMETRY_NODE_HEALTH, node.nodeId(), null));
            }
        } finally {
            fakes.values().forEach(FakeNode::close);
        }
    }

    @Test
    void withKeysConfiguredRejectsBadKeysOversizedBodiesAndBurstsInEachApisShape() throws Exception {
        try (RunningService service = RunningService.start(RouterApplication.class, servers(),
                "zerolayer.api-keys=k-good,k-other", "zerolayer.router.requests-per-second=3",
                "zerolayer.router.max-request-body=2KB")) {
            String count = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

            HttpResponse<String> missing = post(service, "/v1/messages/count_tokens", count);
            assertThat(missing.statusCode()).isEqualTo(401);
            assertThat(json(missing).path("error").path("type").stringValue()).isEqualTo("authentication_error");
            HttpResponse<String> wrong = post(service, "/v1/chat/completions", openAi("g", false, "x"),
                    "authorization", "Bearer k-bad");
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(json(wrong).path("error").path("type").stringValue()).isEqualTo("authentication_error");
            assertThat(json(wrong).has("type")).isFalse();

            HttpResponse<String> tooBig = post(service, "/v1/messages",
                    anthropic("m", false, "x".repeat(3_000)), "x-api-key", "k-other");
            assertThat(tooBig.statusCode()).isEqualTo(413);
            assertThat(json(tooBig).path("error").path("type").stringValue()).isEqualTo("request_too_large");

            int status = 0;
            HttpResponse<String> last = null;
            for (int i = 0; i < 10 && status != 429; i++) {
                last = post(service, "/v1/messages/count_tokens", count, "x-api-key", "k-good");
                status = last.statusCode();
                assertThat(status).isIn(200, 429);
            }
            assertThat(status).isEqualTo(429);
            assertThat(json(last).path("error").path("type").stringValue()).isEqualTo("rate_limit_error");
        }
    }
}
