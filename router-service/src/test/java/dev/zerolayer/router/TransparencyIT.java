package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.testing.FakeNode;
import dev.zerolayer.router.testing.FakeNode.Mode;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
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
import tools.jackson.databind.node.ObjectNode;

/**
 * What a client that changes only its base URL sees, against the real broker and real local HTTP nodes: Claude Code's
 * request passed on whole with its beta headers and query string (credentials and hop-by-hop headers not), a long
 * whole answer served by its tier without a bypass, a node's 4xx as the client's error without opening its breaker,
 * tool calls translated both ways (streaming and not), a field that cannot be translated named in a 400, the decided
 * tier's node of the other API preferred to a lower tier, context windows, the Responses and legacy Completions APIs,
 * token counts that see tools and images, and oversized bodies and headers answered in the API's shape.
 */
@ExtendWith(SharedKafka.class)
class TransparencyIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final String WEATHER = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
            + "\"required\":[\"city\"]}";
    /** A 1x1 PNG. */
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    private static HttpResponse<String> post(RunningService service, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("content-type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return EventCodec.mapper().readTree(response.body());
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TransparencyIT.class.getResourceAsStream("/clients/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static RoutingDecision decision(KafkaTestClient kafka, String requestId) {
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.ROUTER_DECISIONS)) {
            if (record.key() != null && new String(record.key(), StandardCharsets.UTF_8).equals(requestId)) {
                return EventCodec.decode(record.value(), RoutingDecision.class);
            }
        }
        return null;
    }

    /**
     * The fleet: haiku has an OpenAI node that answers with a tool call and one that answers slowly; sonnet an Anthropic
     * node that rejects with a 400 then an OK one; opus an Anthropic node that answers with a tool call.
     */
    private record Fleet(String run, Map<String, FakeNode> nodes, List<NodeHealth> health, FallbackPolicy policy) {

        String id(String name) {
            return name + "-" + run;
        }

        FakeNode node(String name) {
            return nodes.get(id(name));
        }
    }

    private static Fleet fleet() throws IOException {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, FakeNode> nodes = new LinkedHashMap<>();
        List<NodeHealth> health = new ArrayList<>();
        Object[][] layout = {
                {"hTool", "haiku", Mode.TOOL_CALL, true, "call_h1", 0.95},
                {"hSlow", "haiku", Mode.SLOW_STREAM, true, "slow", 0.9},
                {"sReject", "sonnet", Mode.REJECT_400, false, "n: more than one choice is not supported here", 0.95},
                {"sOk", "sonnet", Mode.OK, false, "hello from sOk", 0.5},
                {"oTool", "opus", Mode.TOOL_CALL, false, "toolu_o1", 0.95}};
        for (Object[] row : layout) {
            String id = row[0] + "-" + run;
            FakeNode node = new FakeNode((Mode) row[2], (Boolean) row[3], (String) row[4]);
            nodes.put(id, node);
            // the slow node has a cluster of its own (haiku's second), so it serves alone while the first is down
            String cluster = (row[0].equals("hSlow") ? "haikuslow" : row[1]) + "-" + run;
            NodeHealth entry = GatewayIT.health(id, (String) row[1], cluster, node.baseUrl(),
                    (Boolean) row[3] ? UpstreamProtocol.OPENAI : UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY,
                    (Double) row[5], 0.1);
            if (row[1].equals("sonnet")) {
                // sonnet's nodes need a credential: its name is in their registration, its value in the router's
                // configuration
                NodeRegistration r = entry.registration();
                entry = new NodeHealth(entry.eventId(), entry.occurredAt(), entry.schemaVersion(), entry.nodeId(),
                        new NodeRegistration(r.eventId(), r.occurredAt(), r.schemaVersion(), r.nodeId(), r.tier(),
                                r.cluster(), r.standbyOf(), r.upstreamBaseUrl(), r.protocol(), r.model(),
                                r.capacity(), r.hardwareProfile(), "sonnet-key"),
                        entry.state(), entry.score(), entry.reasons(), entry.diagnosis(), entry.load(),
                        entry.queueDepth(), entry.kvCacheUsage(), entry.predictedReadyAt(),
                        entry.warmupDurationsMs(), entry.lastSampleAgeMs(), entry.clusterLoadSpike(),
                        entry.policyVersion());
            }
            health.add(entry);
        }
        nodes.get("hSlow-" + run).slowStream(Duration.ofMillis(150), 12);
        PolicyDocument d = PolicyDocument.defaults();
        // haiku: a 600 ms limit on the first token and on each gap (the slow node's whole answer takes ~2 s);
        // sonnet's window is small, so a long prompt goes past it; haiku's is the largest
        Map<String, TierLimits> limits = Map.of(
                "haiku", new TierLimits(600, 10_000, 50L, 5_000),
                "sonnet", new TierLimits(5_000, 10_000, 50L, 2_000),
                "opus", new TierLimits(5_000, 10_000, 50L, 4_000));
        PolicyDocument document = new PolicyDocument(
                List.of(new TierSpec("haiku", d.tiers().get(0).modelAliases(), List.of("haiku-" + run)),
                        new TierSpec("sonnet", d.tiers().get(1).modelAliases(), List.of("sonnet-" + run)),
                        new TierSpec("opus", d.tiers().get(2).modelAliases(), List.of("opus-" + run))),
                d.tierTable(), d.chains(), Map.of(), fresh(d.thresholds()), limits, d.resilience(), Map.of());
        FallbackPolicy policy = new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1,
                System.currentTimeMillis(), "test", document);
        return new Fleet(run, nodes, health, policy);
    }

    /** The thresholds with node-health records trusted for 10 minutes (no telemetry-service republishes them here). */
    static dev.zerolayer.contracts.fallback.Thresholds fresh(dev.zerolayer.contracts.fallback.Thresholds t) {
        return new dev.zerolayer.contracts.fallback.Thresholds(t.clusterHealthMin(), t.highComplexity(),
                t.peakBandLow(), t.peakBandHigh(), t.peakLoadMark(), t.loadSpikeRise(), t.loadSpikeWindowMs(),
                t.smUnavailableAbove(), t.smRecoverBelow(), t.smHoldMs(), t.sampleStaleMs(), 600_000,
                t.warmupDefaultMs(), t.warmupProbeLeadMs(), t.cacheHitBlockShare());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aClientChangesOnlyItsBaseUrl() throws Exception {
        Fleet fleet = fleet();
        try (KafkaTestClient kafka = new KafkaTestClient(SharedKafka.broker().bootstrapServers());
                RunningService service = RunningService.start(RouterApplication.class,
                        SharedKafka.broker().bootstrapServers(), "zerolayer.router.max-request-body=64KB",
                        "zerolayer.router.upstream-credentials.sonnet-key=authorization: Bearer node-secret")) {
            await().atMost(WAIT).until(() -> service.bean(dev.zerolayer.platform.topics.TopicGuard.class).ready());
            kafka.publish(Topics.FALLBACK_POLICY, fleet.policy());
            fleet.health().forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, node));
            CompactedView<NodeHealth> view = service.bean("nodeHealth", CompactedView.class);
            CompactedView<FallbackPolicy> policies = service.bean("fallbackPolicy", CompactedView.class);
            await().atMost(WAIT).until(() -> fleet.health().stream().allMatch(n -> view.get(n.nodeId()).isPresent())
                    && policies.get(FallbackPolicy.KEY).map(p -> p.version() == fleet.policy().version())
                    .orElse(false));
            try {
                claudeCodeRequestGoesOnWhole(service, fleet);
                aLongWholeAnswerIsServedByItsTierWithoutABypass(service, fleet, kafka);
                aNodesRefusalIsTheClientsError(service, fleet);
                toolCallsAreTranslatedBothWays(service, fleet);
                untranslatableFieldsAreNamed(service, fleet);
                contextWindowsDecideTheTier(service, fleet);
                responsesAndLegacyCompletions(service, fleet);
                tokenCountsSeeToolsAndImages(service);
                oversizedInputGetsTheApisShape(service);
                onlyNodesOfTheOtherApiLeftNamesTheField(service, fleet, kafka);
            } finally {
                fleet.health().forEach(node -> kafka.send(Topics.TELEMETRY_NODE_HEALTH, node.nodeId(), null));
            }
        } finally {
            fleet.nodes().values().forEach(FakeNode::close);
        }
    }

    private static void claudeCodeRequestGoesOnWhole(RunningService service, Fleet fleet) throws Exception {
        // Given Claude Code's request (a system message mid-conversation with a per-turn setting, adaptive thinking,
        // context management, effort, a JSON user id, 128k max_tokens), its beta headers and ?beta=true
        String body = resource("claude-code-request.json");
        HttpResponse<String> response = post(service, "/v1/messages?beta=true", body,
                "anthropic-routing-priority", "sonnet", "anthropic-version", "2023-06-01",
                "anthropic-beta", "claude-code-20250219,interleaved-thinking-2025-05-14",
                "anthropic-beta", "context-management-2025-06-27", "X-Api-Key", "client-secret",
                "x-stainless-lang", "js", "anthropic-debug", "route");
        // Then sonnet's first node gets it whole (and its verdict, a 400 of its own, is the client's)
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(json(response).path("error").path("message").stringValue())
                .isEqualTo("n: more than one choice is not supported here");
        FakeNode.Received received = fleet.node("sReject").received().get(0);
        ObjectNode sent = (ObjectNode) EventCodec.mapper().readTree(body);
        ObjectNode got = (ObjectNode) EventCodec.mapper().readTree(received.body());
        // every field as sent but the model (the node's) and streaming (always on upstream)
        assertThat(got.get("model").stringValue()).isEqualTo("node-model-" + fleet.id("sReject"));
        assertThat(got.get("stream").booleanValue()).isTrue();
        got.remove(List.of("model", "stream"));
        sent.remove(List.of("model", "stream"));
        assertThat(got).isEqualTo(sent);
        assertThat(received.query()).isEqualTo("beta=true");
        assertThat(received.header("anthropic-beta")).containsExactly(
                "claude-code-20250219,interleaved-thinking-2025-05-14", "context-management-2025-06-27");
        assertThat(received.header("anthropic-version")).containsExactly("2023-06-01");
        assertThat(received.header("x-stainless-lang")).containsExactly("js");
        // the client's credential stays behind; the node gets the one its registration names, from the router
        assertThat(received.header("x-api-key")).isEmpty();
        assertThat(received.header("authorization")).containsExactly("Bearer node-secret");
        assertThat(received.header("anthropic-routing-priority")).isEmpty();
        assertThat(received.header("anthropic-debug")).isEmpty();
    }

    private static void aLongWholeAnswerIsServedByItsTierWithoutABypass(RunningService service, Fleet fleet,
            KafkaTestClient kafka) throws Exception {
        // Given haiku's slow node alone (12 deltas 150 ms apart: ~2 s in all, past the tier's 600 ms first-token
        // limit): the tool node, which ranks first, is down for this
        NodeHealth tool = fleet.health().stream().filter(n -> n.nodeId().equals(fleet.id("hTool"))).findFirst()
                .orElseThrow();
        kafka.publish(Topics.TELEMETRY_NODE_HEALTH, GatewayIT.health(tool.nodeId(), "haiku",
                tool.registration().cluster(), tool.registration().upstreamBaseUrl(), UpstreamProtocol.OPENAI,
                NodeState.DOWN, 0, 0));
        CompactedView<NodeHealth> view = service.bean("nodeHealth", CompactedView.class);
        await().atMost(WAIT).until(() -> view.get(tool.nodeId()).map(n -> n.state() == NodeState.DOWN)
                .orElse(false));
        // When an OpenAI client asks for a whole answer
        HttpResponse<String> slow = post(service, "/v1/chat/completions",
                "{\"model\":\"gpt-asked\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "anthropic-routing-priority", "haiku", "anthropic-debug", "route");
        // Then the slow node serves it whole, no bypass, no fallback
        assertThat(slow.statusCode()).as(slow.body()).isEqualTo(200);
        assertThat(slow.headers().firstValue("X-Anthropic-Route")).hasValue("haiku/haikuslow-" + fleet.run() + "/"
                + fleet.id("hSlow"));
        assertThat(json(slow).path("choices").path(0).path("message").path("content").stringValue())
                .isEqualTo("slow".repeat(12));
        String id = slow.headers().firstValue("request-id").orElseThrow();
        await().atMost(WAIT).untilAsserted(() -> {
            RoutingDecision event = decision(kafka, id);
            assertThat(event).isNotNull();
            assertThat(event.nodesTried()).containsExactly(fleet.id("hSlow"));
            assertThat(event.totalLatencyMillis()).isGreaterThan(600);
        });
        kafka.publish(Topics.TELEMETRY_NODE_HEALTH, tool);
        await().atMost(WAIT).until(() -> view.get(tool.nodeId()).map(n -> n.state() == NodeState.HEALTHY)
                .orElse(false));
    }

    private static void aNodesRefusalIsTheClientsError(RunningService service, Fleet fleet) throws Exception {
        // Given sonnet's first node, which answers 400 with its own message
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> rejected = post(service, "/v1/messages",
                    "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                    "anthropic-routing-priority", "sonnet");
            // Then the client gets that status and message, in its own API's shape, every time (no breaker opened)
            assertThat(rejected.statusCode()).isEqualTo(400);
            assertThat(json(rejected).path("type").stringValue()).isEqualTo("error");
            assertThat(json(rejected).path("error").path("message").stringValue())
                    .isEqualTo("n: more than one choice is not supported here");
        }
        assertThat(fleet.node("sOk").received()).isEmpty();
        // and an OpenAI client translated to it gets the message in OpenAI's shape
        HttpResponse<String> translated = post(service, "/v1/chat/completions",
                "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "anthropic-routing-priority", "sonnet");
        assertThat(translated.statusCode()).isEqualTo(400);
        assertThat(json(translated).has("type")).isFalse();
        assertThat(json(translated).path("error").path("message").stringValue())
                .isEqualTo("n: more than one choice is not supported here");
    }

    private static void toolCallsAreTranslatedBothWays(RunningService service, Fleet fleet) throws Exception {
        String anthropicTools = "{\"model\":\"claude-asked\",\"max_tokens\":64,\"tools\":[{\"name\":\"get_weather\","
                + "\"description\":\"weather\",\"input_schema\":" + WEATHER + "}],\"tool_choice\":{\"type\":\"any\"},"
                + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Weather?\"},"
                + "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"" + PNG
                + "\"}}]}]";
        // An Anthropic client on haiku, whose nodes speak OpenAI: tools, choice and image go over translated
        HttpResponse<String> whole = post(service, "/v1/messages", anthropicTools + "}",
                "anthropic-routing-priority", "haiku");
        assertThat(whole.statusCode()).as(whole.body()).isEqualTo(200);
        JsonNode message = json(whole);
        assertThat(message.path("stop_reason").stringValue()).isEqualTo("tool_use");
        JsonNode use = message.path("content").path(0);
        assertThat(use.path("type").stringValue()).isEqualTo("tool_use");
        assertThat(use.path("id").stringValue()).isEqualTo("call_h1");
        assertThat(use.path("input").path("city").stringValue()).isEqualTo("Paris");
        assertThat(message.path("usage").path("input_tokens").intValue()).isEqualTo(10);
        assertThat(message.path("usage").path("cache_read_input_tokens").intValue()).isEqualTo(20);
        JsonNode upstream = EventCodec.mapper().readTree(fleet.node("hTool").received().get(
                fleet.node("hTool").received().size() - 1).body());
        assertThat(upstream.path("tools").path(0).path("function").path("parameters").path("required").toString())
                .isEqualTo("[\"city\"]");
        assertThat(upstream.path("tool_choice").stringValue()).isEqualTo("required");
        assertThat(upstream.path("messages").path(0).path("content").path(1).path("image_url").path("url")
                .stringValue()).startsWith("data:image/png;base64,");
        // streaming: the arguments arrive as input_json_delta events
        HttpResponse<String> streamed = post(service, "/v1/messages", anthropicTools + ",\"stream\":true}",
                "anthropic-routing-priority", "haiku");
        assertThat(streamed.body()).contains("\"type\":\"tool_use\",\"id\":\"call_h1\",\"name\":\"get_weather\"")
                .contains("\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\":\"")
                .contains("\"stop_reason\":\"tool_use\"").contains("event: message_stop")
                .contains("\"input_tokens\":10");
        // An OpenAI client on opus, whose first node speaks Anthropic: tool_calls with arguments
        String openAiTools = "{\"model\":\"gpt-asked\",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":"
                + "\"get_weather\",\"parameters\":" + WEATHER + "}}],\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"Weather?\"},{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"toolu_old\",\"type\":"
                + "\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Rome\\\"}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"toolu_old\",\"content\":\"sunny\"}]";
        HttpResponse<String> completion = post(service, "/v1/chat/completions", openAiTools + "}",
                "anthropic-routing-priority", "opus");
        assertThat(completion.statusCode()).as(completion.body()).isEqualTo(200);
        JsonNode choice = json(completion).path("choices").path(0);
        assertThat(choice.path("finish_reason").stringValue()).isEqualTo("tool_calls");
        assertThat(choice.path("message").path("tool_calls").path(0).path("id").stringValue()).isEqualTo("toolu_o1");
        assertThat(EventCodec.mapper().readTree(choice.path("message").path("tool_calls").path(0).path("function")
                .path("arguments").stringValue()).path("city").stringValue()).isEqualTo("Paris");
        JsonNode sentToOpus = EventCodec.mapper().readTree(fleet.node("oTool").received().get(
                fleet.node("oTool").received().size() - 1).body());
        assertThat(sentToOpus.path("tools").path(0).path("input_schema").path("required").toString())
                .isEqualTo("[\"city\"]");
        assertThat(sentToOpus.path("messages").path(1).path("content").path(0).path("input").path("city")
                .stringValue()).isEqualTo("Rome");
        assertThat(sentToOpus.path("messages").path(2).path("content").path(0).path("type").stringValue())
                .isEqualTo("tool_result");
        HttpResponse<String> chunks = post(service, "/v1/chat/completions", openAiTools
                + ",\"stream\":true,\"stream_options\":{\"include_usage\":true}}", "anthropic-routing-priority", "opus");
        assertThat(chunks.body()).contains("\"tool_calls\":[{\"index\":0,\"id\":\"toolu_o1\",\"type\":\"function\"")
                .contains("\"finish_reason\":\"tool_calls\"").contains("\"prompt_tokens\":30")
                .endsWith("data: [DONE]\n\n");
    }

    private static void untranslatableFieldsAreNamed(RunningService service, Fleet fleet) throws Exception {
        // haiku has only OpenAI nodes; thinking has no Chat Completions equivalent: an Anthropic node of the chain's
        // next tier takes it
        HttpResponse<String> thinking = post(service, "/v1/route/explain",
                "{\"model\":\"m\",\"max_tokens\":2048,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "anthropic-routing-priority", "haiku");
        assertThat(json(thinking).path("tier").stringValue()).isEqualTo("sonnet");
        assertThat(json(thinking).path("translated").booleanValue()).isFalse();
        // An OpenAI client pinned to opus, whose only node speaks Anthropic: that node beats haiku's OpenAI nodes
        HttpResponse<String> protocolAware = post(service, "/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "anthropic-routing-priority", "opus", "anthropic-debug", "route");
        assertThat(protocolAware.headers().firstValue("X-Anthropic-Route")).hasValue("opus/opus-" + fleet.run() + "/"
                + fleet.id("oTool"));
        assertThat(protocolAware.headers().firstValue("X-Anthropic-Fallback-Reason")).isEmpty();
    }

    private static void contextWindowsDecideTheTier(RunningService service, Fleet fleet) throws Exception {
        String words = "tokens ".repeat(3_000);
        // sonnet holds 2,000 tokens: a 3,000-token prompt pinned to sonnet goes on along its chain (to haiku)
        HttpResponse<String> moved = post(service, "/v1/route/explain",
                "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"" + words + "\"}]}",
                "anthropic-routing-priority", "sonnet");
        assertThat(json(moved).path("tier").stringValue()).isEqualTo("haiku");
        assertThat(json(moved).path("fallback_reason").stringValue()).isEqualTo("context_window_exceeded");
        assertThat(json(moved).path("rules_fired").toString()).contains("context_window:sonnet");
        // past every window (haiku's 5,000 is the largest): a 400 naming the count and the limit
        HttpResponse<String> tooLong = post(service, "/v1/messages",
                "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\""
                        + "word ".repeat(9_000) + "\"}]}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong).path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
        assertThat(json(tooLong).path("error").path("message").stringValue()).startsWith("prompt is too long: ")
                .endsWith(" tokens > 5000 maximum");
    }

    private static void responsesAndLegacyCompletions(RunningService service, Fleet fleet) throws Exception {
        // The Responses API, translated for the Anthropic node on opus: a function_call item
        HttpResponse<String> response = post(service, "/v1/responses",
                "{\"model\":\"gpt-asked\",\"input\":\"Weather?\",\"instructions\":\"be brief\",\"tools\":[{\"type\":"
                        + "\"function\",\"name\":\"get_weather\",\"parameters\":" + WEATHER + ",\"strict\":null}],"
                        + "\"text\":{}}", "anthropic-routing-priority", "opus");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.path("object").stringValue()).isEqualTo("response");
        assertThat(body.path("status").stringValue()).isEqualTo("completed");
        JsonNode call = body.path("output").path(0);
        assertThat(call.path("type").stringValue()).isEqualTo("function_call");
        assertThat(call.path("call_id").stringValue()).isEqualTo("toolu_o1");
        assertThat(call.path("id").stringValue()).startsWith("fc_");
        assertThat(EventCodec.mapper().readTree(call.path("arguments").stringValue()).path("city").stringValue())
                .isEqualTo("Paris");
        assertThat(body.path("usage").path("total_tokens").intValue()).isPositive();
        // the next turn names the call by reference: the gateway kept it
        HttpResponse<String> next = post(service, "/v1/responses", "{\"model\":\"gpt-asked\",\"input\":["
                + "{\"role\":\"user\",\"content\":\"Weather?\"},{\"type\":\"item_reference\",\"id\":\""
                + call.path("id").stringValue() + "\"},{\"type\":\"function_call_output\",\"call_id\":\"toolu_o1\","
                + "\"output\":\"sunny\"}],\"stream\":true}", "anthropic-routing-priority", "opus");
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(next.body()).startsWith("event: response.created\n").contains("event: response.completed");
        JsonNode replayed = EventCodec.mapper().readTree(fleet.node("oTool").received().get(
                fleet.node("oTool").received().size() - 1).body());
        assertThat(replayed.path("messages").path(1).path("content").path(0).path("type").stringValue())
                .isEqualTo("tool_use");
        HttpResponse<String> unknown = post(service, "/v1/responses",
                "{\"model\":\"m\",\"input\":[{\"type\":\"item_reference\",\"id\":\"msg_nope\"}]}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).path("error").path("message").stringValue()).contains("msg_nope");
        // the next turn goes on from the first response by its id: its input and its call come before the output
        // given now, its instructions do not (as in OpenAI's API), and the answer names the response it went on from
        String firstId = body.path("id").stringValue();
        HttpResponse<String> onFrom = post(service, "/v1/responses", "{\"model\":\"gpt-asked\",\"tools\":[{\"type\":"
                + "\"function\",\"name\":\"get_weather\",\"parameters\":" + WEATHER + "}],"
                + "\"previous_response_id\":\"" + firstId + "\",\"input\":[{\"type\":\"function_call_output\","
                + "\"call_id\":\"toolu_o1\",\"output\":\"sunny\"}]}", "anthropic-routing-priority", "opus");
        assertThat(onFrom.statusCode()).as(onFrom.body()).isEqualTo(200);
        assertThat(json(onFrom).path("previous_response_id").stringValue()).isEqualTo(firstId);
        JsonNode wentOn = EventCodec.mapper().readTree(fleet.node("oTool").received().get(
                fleet.node("oTool").received().size() - 1).body());
        assertThat(wentOn.path("system").isMissingNode()).as(wentOn.toString()).isTrue();
        assertThat(wentOn.path("messages").size()).as(wentOn.toString()).isEqualTo(3);
        assertThat(wentOn.at("/messages/0/content/0/text").stringValue()).isEqualTo("Weather?");
        assertThat(wentOn.at("/messages/1/content/0/type").stringValue()).isEqualTo("tool_use");
        assertThat(wentOn.at("/messages/2/content/0/type").stringValue()).isEqualTo("tool_result");
        // a third turn goes on from the second: the whole conversation, streamed
        HttpResponse<String> third = post(service, "/v1/responses", "{\"model\":\"gpt-asked\","
                + "\"previous_response_id\":\"" + json(onFrom).path("id").stringValue() + "\",\"input\":\"And "
                + "tomorrow?\",\"stream\":true}", "anthropic-routing-priority", "opus");
        assertThat(third.statusCode()).as(third.body()).isEqualTo(200);
        assertThat(third.body()).contains("event: response.completed");
        JsonNode whole = EventCodec.mapper().readTree(fleet.node("oTool").received().get(
                fleet.node("oTool").received().size() - 1).body());
        assertThat(whole.path("messages").size()).as(whole.toString()).isEqualTo(5);
        assertThat(whole.at("/messages/4/content/0/text").stringValue()).isEqualTo("And tomorrow?");
        // a stored response is read by its id as it was answered, and deleted: then it is gone for every use
        String secondId = json(onFrom).path("id").stringValue();
        HttpResponse<String> read = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/v1/responses/"
                + secondId)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(json(read).path("output")).isEqualTo(json(onFrom).path("output"));
        assertThat(json(read).path("previous_response_id").stringValue()).isEqualTo(firstId);
        HttpResponse<String> deleted = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                + "/v1/responses/" + secondId)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(json(deleted).path("deleted").booleanValue()).isTrue();
        HttpResponse<String> gone = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/v1/responses/"
                + secondId)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(json(gone).path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
        assertThat(json(gone).path("error").path("message").stringValue())
                .isEqualTo("Response with id '" + secondId + "' not found.");
        HttpResponse<String> afterDelete = post(service, "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\","
                + "\"previous_response_id\":\"" + secondId + "\"}");
        assertThat(afterDelete.statusCode()).isEqualTo(400);
        // a response asked with store false, or one never answered, cannot be gone on from: OpenAI's 400 and code
        HttpResponse<String> unstored = post(service, "/v1/responses",
                "{\"model\":\"m\",\"input\":\"hi\",\"store\":false,\"max_output_tokens\":8}",
                "anthropic-routing-priority", "opus");
        assertThat(unstored.statusCode()).as(unstored.body()).isEqualTo(200);
        // nor are its items kept: a reference to one is unknown
        HttpResponse<String> unstoredItem = post(service, "/v1/responses", "{\"model\":\"m\",\"input\":[{\"type\":"
                + "\"item_reference\",\"id\":\"" + json(unstored).path("output").path(0).path("id").stringValue()
                + "\"}]}");
        assertThat(unstoredItem.statusCode()).as(unstoredItem.body()).isEqualTo(404);
        for (String id : List.of(json(unstored).path("id").stringValue(), "resp_1")) {
            HttpResponse<String> stateful = post(service, "/v1/responses",
                    "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"" + id + "\"}");
            assertThat(stateful.statusCode()).as(id).isEqualTo(400);
            JsonNode error = json(stateful).path("error");
            assertThat(error.path("message").stringValue()).startsWith("Previous response with id '" + id
                    + "' not found.");
            assertThat(error.path("param").stringValue()).isEqualTo("previous_response_id");
            assertThat(error.path("code").stringValue()).isEqualTo("previous_response_not_found");
            assertThat(error.path("type").stringValue()).isEqualTo("invalid_request_error");
        }
        // legacy completions go to an OpenAI node as they are (opus has none: its chain leads to haiku's)
        HttpResponse<String> legacy = post(service, "/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"Once\",\"max_tokens\":4}", "anthropic-routing-priority", "opus");
        assertThat(legacy.statusCode()).as(legacy.body()).isEqualTo(200);
        assertThat(json(legacy).path("object").stringValue()).isEqualTo("text_completion");
        FakeNode hTool = fleet.node("hTool");
        FakeNode.Received completion = hTool.received().get(hTool.received().size() - 1);
        assertThat(completion.path()).isEqualTo("/v1/completions");
        assertThat(completion.body()).contains("\"prompt\":\"Once\"").contains("\"include_usage\":true");
        // a reasoning effort reaches an OpenAI node as Chat Completions' reasoning_effort (opus's node cannot take it)
        HttpResponse<String> effort = post(service, "/v1/responses", "{\"model\":\"m\",\"input\":\"Why?\","
                + "\"max_output_tokens\":8,\"reasoning\":{\"effort\":\"high\",\"summary\":\"auto\"}}",
                "anthropic-routing-priority", "opus");
        assertThat(effort.statusCode()).as(effort.body()).isEqualTo(200);
        assertThat(json(effort).path("reasoning").path("effort").stringValue()).isEqualTo("high");
        FakeNode.Received reasoned = hTool.received().get(hTool.received().size() - 1);
        assertThat(reasoned.path()).isEqualTo("/v1/chat/completions");
        assertThat(EventCodec.mapper().readTree(reasoned.body()).path("reasoning_effort").stringValue())
                .isEqualTo("high");
        // from an unknown OpenAI path the error is OpenAI-shaped
        HttpResponse<String> missing = post(service, "/v1/responses/x/cancel", "{}");
        assertThat(missing.statusCode()).isIn(404, 405);
        assertThat(json(missing).has("type")).isFalse();
        // another method on a client API's path is not the gateway's: the API-shaped 404/405, with a trace id
        HttpResponse<String> wrongMethod = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                + "/v1/messages")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrongMethod.statusCode()).isIn(404, 405);
        assertThat(json(wrongMethod).path("type").stringValue()).isEqualTo("error");
        assertThat(wrongMethod.headers().firstValue("x-anthropic-trace-id")).isPresent();
        // a stored answer's path with a segment too many is no stored answer's
        HttpResponse<String> deeper = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                + "/v1/responses/x/y/input_items")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(deeper.statusCode()).isEqualTo(404);
        assertThat(json(deeper).path("error").path("type").stringValue()).isNotBlank();
        HttpResponse<String> models = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                + "/v1/models/claude-haiku-4-5")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(json(models).path("object").stringValue()).isEqualTo("model");
        assertThat(json(models).path("created").isIntegralNumber()).isTrue();
        HttpResponse<String> anthropicModels = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                        + "/v1/models/nope")).header("anthropic-version", "2023-06-01").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anthropicModels.statusCode()).isEqualTo(404);
        assertThat(json(anthropicModels).path("error").path("type").stringValue()).isEqualTo("not_found_error");
    }

    private static void tokenCountsSeeToolsAndImages(RunningService service) throws Exception {
        String text = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Weather?\"}]}";
        String tools = "{\"model\":\"m\",\"tools\":[{\"name\":\"get_weather\",\"description\":\"" + "word ".repeat(100)
                + "\",\"input_schema\":" + WEATHER + "}],\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":"
                + "\"text\",\"text\":\"Weather?\"},{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":"
                + "\"https://example.com/a.png\"}}]}]}";
        int plain = json(post(service, "/v1/messages/count_tokens", text)).path("input_tokens").intValue();
        int full = json(post(service, "/v1/messages/count_tokens", tools)).path("input_tokens").intValue();
        // a 100-word description and an image of unknown size (the formula's most, 1,600) are counted
        assertThat(full - plain).isGreaterThan(1_600 + 100);
    }

    private static void onlyNodesOfTheOtherApiLeftNamesTheField(RunningService service, Fleet fleet,
            KafkaTestClient kafka) throws Exception {
        // Given haiku's OpenAI nodes down, only Anthropic nodes can serve
        CompactedView<NodeHealth> view = service.bean("nodeHealth", CompactedView.class);
        for (String name : List.of("hTool", "hSlow")) {
            NodeHealth node = fleet.health().stream().filter(n -> n.nodeId().equals(fleet.id(name))).findFirst()
                    .orElseThrow();
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, GatewayIT.health(node.nodeId(), "haiku",
                    node.registration().cluster(), node.registration().upstreamBaseUrl(), UpstreamProtocol.OPENAI,
                    NodeState.DOWN, 0, 0));
            await().atMost(WAIT).until(() -> view.get(node.nodeId()).map(n -> n.state() == NodeState.DOWN)
                    .orElse(false));
        }
        // When an OpenAI client asks for two choices, or a legacy completion, which no Anthropic node can give
        HttpResponse<String> choices = post(service, "/v1/chat/completions",
                "{\"model\":\"m\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        HttpResponse<String> legacy = post(service, "/v1/completions", "{\"model\":\"m\",\"prompt\":\"Once\"}");
        // Then a 400 in OpenAI's shape names the field, never a silent drop
        assertThat(choices.statusCode()).isEqualTo(400);
        assertThat(json(choices).path("error").path("message").stringValue()).startsWith("'n' cannot be carried")
                .contains("Anthropic API");
        assertThat(legacy.statusCode()).isEqualTo(400);
        assertThat(json(legacy).path("error").path("message").stringValue()).startsWith("'prompt' cannot be carried");
        fleet.health().stream().filter(n -> n.nodeId().startsWith("h"))
                .forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, node));
    }

    private static void oversizedInputGetsTheApisShape(RunningService service) throws Exception {
        // a body past the limit (64 KB here) but within what is drained: a readable 413 in the API's shape
        HttpResponse<String> tooBig = post(service, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"" + "x".repeat(96 * 1024) + "\"}]}");
        assertThat(tooBig.statusCode()).isEqualTo(413);
        assertThat(json(tooBig).path("error").path("message").stringValue()).contains("exceeds");
        assertThat(json(tooBig).has("type")).isFalse();
        // a header past the server's limit: 431 with a body in the API's shape (raw socket: the JDK client refuses)
        try (Socket socket = new Socket("127.0.0.1", URI.create(service.baseUrl()).getPort())) {
            String request = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nanthropic-routing-priority: "
                    + "o".repeat(70_000) + "\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 431").contains("\"type\":\"error\"")
                    .contains("request headers are too large");
        }
    }
}
