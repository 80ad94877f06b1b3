package dev.zerolayer.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.complexity.model.ModelOwner;
import dev.zerolayer.complexity.observation.ObservedDecisions;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.HashedNgrams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * complexity-service against the real broker and over real HTTP: counts decisions per tier and dead-letters poison;
 * publishes the built-in model on a first start and keeps an uploaded one across restarts (the compacted model topic
 * unchanged by the restart, publishing resumed after it); validates uploads behind the admin token; scores, baselines
 * and calibrates; only health and prometheus on the actuator.
 */
@ExtendWith(SharedKafka.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComplexityServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ADMIN_TOKEN = "it-admin-" + UUID.randomUUID();
    private static final List<String> HIDDEN_ACTUATORS = List.of("/actuator/env", "/actuator/beans",
            "/actuator/configprops", "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers",
            "/actuator/mappings", "/actuator/shutdown");

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @Test
    @Order(1)
    void countsDecisionsAndFallbacksPerTierAndDeadLettersPoisonWithoutStopping() {
        try (RunningService service = RunningService.start(ComplexityApplication.class, servers());
             KafkaTestClient kafka = new KafkaTestClient(servers())) {
            ObservedDecisions observed = service.bean(ObservedDecisions.class);

            // Given the first start on this broker: the model topic was empty, so the built-in model is published
            ModelOwner owner = service.bean(ModelOwner.class);
            await().atMost(WAIT).until(owner::ready);
            assertThat(owner.publishedBuiltIn()).isTrue();
            assertThat(latestModel(kafka).modelVersion()).isEqualTo(ComplexityModels.builtIn().modelVersion());

            // Given a running service
            // When the router publishes two haiku decisions and a sonnet decision that fell back
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "haiku", false));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "haiku", false));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("req-" + UUID.randomUUID(), "sonnet", true));

            // Then it counts them per tier
            await().atMost(WAIT).until(() -> observed.tier("haiku").equals(TierStats.of(2, 0))
                    && observed.tier("sonnet").equals(TierStats.of(1, 1)));

            // When junk arrives on the decisions topic, followed on the same partition by a good opus fallback
            String request = "req-" + UUID.randomUUID();
            kafka.send(Topics.ROUTER_DECISIONS, request, "{not json".getBytes(StandardCharsets.UTF_8));
            kafka.publish(Topics.ROUTER_DECISIONS, decision(request, "opus", true));

            // Then the consumer keeps going, and the junk is on the dead-letter topic with its reason
            await().atMost(WAIT).until(() -> observed.tier("opus").equals(TierStats.of(1, 1)));
            String dlq = Topics.deadLetterTopic(Topics.ROUTER_DECISIONS, Topics.COMPLEXITY);
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                    .anySatisfy(record -> {
                        assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(request);
                    }));
            assertThat(observed.total()).isEqualTo(TierStats.of(4, 2));

            // And the endpoint, health and metrics show it
            assertThat(service.get("/v1/complexity/observed").body())
                    .contains("\"haiku\":{\"decisions\":2,\"fallbacks\":0,\"fallbackRate\":0.0}")
                    .contains("\"sonnet\":{\"decisions\":1,\"fallbacks\":1,\"fallbackRate\":1.0}")
                    .contains("\"total\":{\"decisions\":4,\"fallbacks\":2,\"fallbackRate\":0.5}");
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            assertThat(service.get("/actuator/prometheus").body())
                    .contains("zerolayer_events_rejected_total{reason=\"malformed\"");

            // And the actuator shows health and prometheus only
            for (String path : HIDDEN_ACTUATORS) {
                assertThat(service.get(path).statusCode()).as(path).isEqualTo(404);
            }
            assertThat(new Http(service.baseUrl()).send("POST", "/actuator/shutdown", null, null).statusCode())
                    .isEqualTo(404);
            assertThat(service.isActive()).isTrue();
        }
    }

    @Test
    @Order(2)
    void ownsTheModelValidatesUploadsScoresBaselinesAndCalibrates() throws Exception {
        String[] properties = {"zerolayer.admin-token=" + ADMIN_TOKEN,
            "zerolayer.complexity.max-body-size=4MB",
            "zerolayer.complexity.calibration.min-decisions=20",
            "zerolayer.complexity.calibration.min-band-decisions=5",
            // a consumer group of its own, so the first test's exact counts never see these decisions
            "spring.cloud.stream.bindings.routerDecisions-in-0.group=complexity-service-it-calibration"};
        String builtIn = ComplexityModels.builtIn().modelVersion();
        String uploaded = "cx-it-" + UUID.randomUUID().toString().substring(0, 8);
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            boolean topicWasEmpty = latestModel(kafka) == null;
            try (RunningService service = RunningService.start(ComplexityApplication.class, servers(), properties)) {
                Http http = new Http(service.baseUrl());
                ModelOwner owner = service.bean(ModelOwner.class);
                await().atMost(WAIT).until(owner::ready);

                // Given a service that read the model topic: the built-in model is the published, active one
                assertThat(owner.publishedBuiltIn()).isEqualTo(topicWasEmpty);
                assertThat(latestModel(kafka).modelVersion()).isEqualTo(builtIn);
                assertThat(http.get("/v1/complexity/model").body()).contains("\"modelVersion\":\"" + builtIn + "\"");

                // Uploads need the admin token: none 401, wrong 403 (in the API error shape)
                byte[] good = model(uploaded, 1.1, m -> { });
                HttpResponse<String> none = http.send("PUT", "/v1/complexity/model", good, null);
                assertThat(none.statusCode()).isEqualTo(401);
                assertThat(none.body()).contains("\"type\":\"error\"").contains("authentication_error");
                assertThat(http.send("PUT", "/v1/complexity/model", good, "Bearer wrong").statusCode()).isEqualTo(403);

                // Invalid uploads are refused naming the field, and change nothing
                assertRefused(http, model("v-dims", 1, m -> ((ObjectNode) m.get("weights")).remove("legal")),
                        "weights: 28 features given");
                assertRefused(http, new String(model("v-nan", 1, m -> ((ObjectNode) m.get("weights")).put("legal", 7.25)),
                        StandardCharsets.UTF_8).replace("7.25", "NaN").getBytes(StandardCharsets.UTF_8),
                        "weights.legal: must be a finite number");
                assertRefused(http, model("v-thresholds", 1, m -> m.putObject("thresholds").put("haiku", 0.6)
                        .put("sonnet", 0.3)), "thresholds:");
                assertRefused(http, model("v-flat", 0, m -> { }), "weights: the model ranks the built-in sanity set");
                assertRefused(http, model(builtIn, 1.1, m -> { }), "modelVersion:");
                assertRefused(http, "{\"modelVersion\":".getBytes(StandardCharsets.UTF_8), "body: not valid JSON");
                assertThat(http.get("/v1/complexity/model").body()).contains("\"modelVersion\":\"" + builtIn + "\"");
                assertThat(latestModel(kafka).modelVersion()).isEqualTo(builtIn);

                // A valid upload with the right token is published and active when the answer comes
                HttpResponse<String> accepted = http.send("PUT", "/v1/complexity/model", good, "Bearer " + ADMIN_TOKEN);
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
                assertThat(accepted.body()).contains("\"modelVersion\":\"" + uploaded + "\"")
                        .contains("\"previousVersion\":\"" + builtIn + "\"");
                assertThat(http.get("/v1/complexity/model").body()).contains("\"modelVersion\":\"" + uploaded + "\"");
                assertThat(latestModel(kafka).modelVersion()).isEqualTo(uploaded);

                // Scoring uses it: string and block content, system blocks; chit-chat below maths
                HttpResponse<String> scored = http.send("POST", "/v1/complexity/score", json("""
                        {"items":[
                          {"id":"chat","messages":[{"role":"user","content":"Hi, how are you?"}]},
                          {"id":42,"system":[{"type":"text","text":"You are a tutor."}],"messages":[
                            {"role":"user","content":[{"type":"text","text":"Solve 3x + 2y = 12 and 5x - 4y = 2, then prove the solution is unique."}]}]}
                        ]}"""), null);
                assertThat(scored.statusCode()).as(scored.body()).isEqualTo(200);
                JsonNode scores = EventCodec.mapper().readTree(scored.body());
                assertThat(scores.get("modelVersion").stringValue()).isEqualTo(uploaded);
                assertThat(scores.get("items")).hasSize(2);
                JsonNode chat = scores.get("items").get(0);
                JsonNode maths = scores.get("items").get(1);
                assertThat(chat.get("id").stringValue()).isEqualTo("chat");
                assertThat(maths.get("id").intValue()).isEqualTo(42);
                assertThat(chat.get("score").doubleValue()).isLessThan(maths.get("score").doubleValue());
                assertThat(maths.get("tokenCount").intValue()).isGreaterThan(20);
                assertThat(maths.get("features").size()).isEqualTo(ComplexityScorer.featureIds().size());
                assertThat(maths.get("features").get("math_expr").doubleValue()).isPositive();

                // Bad input: 400 naming the field, 413 over the body limit, never a 500
                assertBadInput(http, "{\"items\":[", "body: not valid JSON");
                assertBadInput(http, "{\"items\":[]}", "items: at least one item");
                assertBadInput(http, "{\"items\":[{\"id\":1}]}", "items[0].messages: required");
                assertBadInput(http, "{\"items\":[{\"id\":1,\"messages\":[{\"role\":\"user\",\"content\":7}]}]}",
                        "items[0].messages[0].content: must be a string or a list");
                byte[] junk = new byte[4_096];
                new Random(9).nextBytes(junk);
                HttpResponse<String> binary = http.send("POST", "/v1/complexity/score", junk, null);
                assertThat(binary.statusCode()).isEqualTo(400);
                assertThat(binary.body()).contains("invalid_request_error");
                assertThat(http.send("POST", "/v1/complexity/score", new byte[5 * 1024 * 1024], null).statusCode())
                        .isEqualTo(413);
                String huge = "The quarterly report shows revenue growth of 12 percent while costs rose. ".repeat(14_700);
                long started = System.nanoTime();
                HttpResponse<String> long200k = http.send("POST", "/v1/complexity/score", EventCodec.mapper()
                        .writeValueAsBytes(Map.of("items", List.of(Map.of("id", "huge",
                                "messages", List.of(Map.of("role", "user", "content", huge)))))), null);
                double seconds = (System.nanoTime() - started) / 1e9;
                assertThat(long200k.statusCode()).isEqualTo(200);
                assertThat(EventCodec.mapper().readTree(long200k.body()).get("items").get(0).get("tokenCount").intValue())
                        .isGreaterThan(200_000);
                assertThat(seconds).as("200k-token prompt scored in %.2f s", seconds).isLessThan(15);
                System.out.printf("200k-token prompt (%d bytes) scored over HTTP in %.3f s%n", huge.length(), seconds);

                // Baseline: distribution, mix at the current thresholds, thresholds for a target mix
                HttpResponse<String> baseline = http.send("POST", "/v1/complexity/baseline", json("""
                        {"prompts":["Hi!","Thanks a lot","What is the capital of France?","Where is my order?",
                          "Write a short poem about autumn","Summarize this paragraph in two sentences: the meeting moved to Tuesday.",
                          "Solve 3x + 2y = 12 and 5x - 4y = 2, then verify the solution.",
                          "Review this contract clause for liability and indemnification risks under California law.",
                          "Write a Python function that parses a CSV of transactions and computes a rolling 30-day sum with pandas, with tests.",
                          "Prove that the square root of 2 is irrational."],
                         "targetMix":{"haiku":0.5,"sonnet":0.3,"opus":0.2}}"""), null);
                assertThat(baseline.statusCode()).as(baseline.body()).isEqualTo(200);
                JsonNode report = EventCodec.mapper().readTree(baseline.body());
                assertThat(report.get("modelVersion").stringValue()).isEqualTo(uploaded);
                assertThat(report.get("count").intValue()).isEqualTo(10);
                assertThat(report.get("distribution").get("histogram")).hasSize(10);
                assertThat(report.get("distribution").get("percentiles").has("p50")).isTrue();
                assertThat(report.get("current").get("thresholds").get("haiku").doubleValue()).isEqualTo(0.30);
                assertThat(report.get("current").get("thresholds").get("sonnet").doubleValue()).isEqualTo(0.60);
                double mixSum = 0;
                for (JsonNode share : report.get("current").get("tierMix")) {
                    mixSum += share.doubleValue();
                }
                assertThat(mixSum).isCloseTo(1.0, within(1e-9));
                JsonNode recommended = report.get("recommended");
                assertThat(recommended.get("tierMix").get("haiku").doubleValue()).isEqualTo(0.5);
                assertThat(recommended.get("thresholds").get("haiku").doubleValue())
                        .isLessThanOrEqualTo(recommended.get("thresholds").get("sonnet").doubleValue());
                assertThat(report.get("items")).hasSize(10);
                HttpResponse<String> unordered = http.send("POST", "/v1/complexity/baseline",
                        json("{\"prompts\":[\"hi\"],\"thresholds\":{\"haiku\":0.7,\"sonnet\":0.4}}"), null);
                assertThat(unordered.statusCode()).isEqualTo(400);
                assertThat(unordered.body()).contains("thresholds.sonnet");

                // Calibration: sonnet-bound requests just above 0.30 keep falling back to haiku
                for (int i = 0; i < 20; i++) {
                    kafka.publish(Topics.ROUTER_DECISIONS, calibrationDecision("haiku", 0.15, false, null));
                    boolean fellBack = i < 8;
                    kafka.publish(Topics.ROUTER_DECISIONS, calibrationDecision(fellBack ? "haiku" : "sonnet", 0.35,
                            fellBack, fellBack ? "target_cluster_unavailable" : null));
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    JsonNode calibration = EventCodec.mapper().readTree(http.get("/v1/complexity/calibration").body());
                    JsonNode band = calibration.get("bands").get(3);
                    assertThat(band.get("decisions").longValue()).isEqualTo(20);
                    assertThat(band.get("fallbacks").longValue()).isEqualTo(8);
                    assertThat(band.get("servedTiers").get("haiku").longValue()).isEqualTo(8);
                    JsonNode proposal = calibration.get("proposal");
                    assertThat(proposal.get("status").stringValue()).isEqualTo("proposed");
                    assertThat(proposal.get("proposed").get("haiku").doubleValue()).isEqualTo(0.4);
                    assertThat(proposal.get("current").get("haiku").doubleValue()).isEqualTo(0.3);
                    assertThat(calibration.get("applied").booleanValue()).isFalse();
                });
                assertThat(http.get("/actuator/prometheus").body())
                        .contains("zerolayer_complexity_calibration_proposal_pending{service=\"complexity-service\"} 1.0")
                        .contains("zerolayer_complexity_calibration_threshold{kind=\"proposed\",service=\"complexity-service\",tier=\"haiku\"} 0.4")
                        .contains("zerolayer_complexity_model_uploads_total{outcome=\"accepted\"");
                assertThat(http.get("/v1/nothing-here").statusCode()).isEqualTo(404);
            }

            // (stopped) what the compacted model topic holds before the restart
            Map<String, JsonNode> before = latestContent(kafka, Topics.COMPLEXITY_MODEL);
            long endBefore = endOffset(kafka, Topics.COMPLEXITY_MODEL);

            // When the service restarts, it reads the uploaded model back and does not replace it
            String next = "cx-it-" + UUID.randomUUID().toString().substring(0, 8);
            try (RunningService restarted = RunningService.start(ComplexityApplication.class, servers(), properties)) {
                ModelOwner owner = restarted.bean(ModelOwner.class);
                await().atMost(WAIT).until(owner::ready);
                assertThat(owner.publishedBuiltIn()).isFalse();
                Http again = new Http(restarted.baseUrl());
                assertThat(again.get("/v1/complexity/model").body())
                        .contains("\"modelVersion\":\"" + uploaded + "\"");
                assertThat(latestModel(kafka).modelVersion()).isEqualTo(uploaded);
                // the topic is unchanged: same latest value per key, nothing republished
                assertThat(latestContent(kafka, Topics.COMPLEXITY_MODEL)).isEqualTo(before);
                assertThat(endOffset(kafka, Topics.COMPLEXITY_MODEL)).as("no record written").isEqualTo(endBefore);

                // And it resumes publishing: the next upload is on the topic and active
                HttpResponse<String> nextUpload = again.send("PUT", "/v1/complexity/model", model(next, 1.2, m -> { }),
                        "Bearer " + ADMIN_TOKEN);
                assertThat(nextUpload.statusCode()).as(nextUpload.body()).isEqualTo(200);
                assertThat(nextUpload.body()).contains("\"previousVersion\":\"" + uploaded + "\"");
                assertThat(latestModel(kafka).modelVersion()).isEqualTo(next);

                // The built-in learned model (an encoder part of 2^18 buckets, ~350 kB, and a score map) travels the topic and scores
                ComplexityModel learned = ComplexityModels.builtIn();
                HttpResponse<String> learnedUpload = again.send("PUT", "/v1/complexity/model",
                        EventCodec.encode(learned), "Bearer " + ADMIN_TOKEN);
                assertThat(learnedUpload.statusCode()).as(learnedUpload.body()).isEqualTo(200);
                assertThat(latestModel(kafka).ngrams()).isEqualTo(learned.ngrams());
                assertThat(latestModel(kafka).scoreMap()).isEqualTo(learned.scoreMap());
                JsonNode learnedScores = EventCodec.mapper().readTree(again.send("POST", "/v1/complexity/score",
                        json("""
                        {"items":[{"id":1,"messages":[{"role":"user","content":"Which of these is a prime number? A. 21 B. 27 C. 29 D. 33"}]}]}"""),
                        null).body());
                assertThat(learnedScores.get("modelVersion").stringValue()).isEqualTo(learned.modelVersion());
                assertThat(learnedScores.get("encoder").stringValue()).isEqualTo(HashedNgrams.ENCODER);
                assertThat(learnedScores.get("items").get(0).get("drivers").toString())
                        .contains(ComplexityScorer.NGRAMS_DRIVER);
            }
            // The compacted topic holds one model under its one key, the last one uploaded
            Map<String, JsonNode> after = latestContent(kafka, Topics.COMPLEXITY_MODEL);
            assertThat(after.keySet()).containsExactly(ComplexityModel.KEY);
            assertThat(after.get(ComplexityModel.KEY).get("modelVersion").asString())
                    .isEqualTo(ComplexityModels.builtIn().modelVersion());
        }
    }

    private static void assertRefused(Http http, byte[] body, String message) {
        HttpResponse<String> response = http.send("PUT", "/v1/complexity/model", body, "Bearer " + ADMIN_TOKEN);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("\"type\":\"invalid_request_error\"").contains(message);
    }

    private static void assertBadInput(Http http, String body, String message) {
        HttpResponse<String> response = http.send("POST", "/v1/complexity/score", json(body), null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("\"type\":\"error\"").contains(message);
    }

    /** The lexical model as an upload: a version, every weight scaled, then changed. */
    static byte[] model(String version, double scale, java.util.function.Consumer<ObjectNode> change) {
        ObjectNode model = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(ComplexityModels.lexical()));
        model.put("modelVersion", version);
        ObjectNode weights = (ObjectNode) model.get("weights");
        weights.propertyNames().stream().toList()
                .forEach(name -> weights.put(name, weights.get(name).doubleValue() * scale));
        change.accept(model);
        return EventCodec.mapper().writeValueAsBytes(model);
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The latest value per key of a compacted topic, as JSON without its envelope (event id and time, which a
     * republication may renew); null for a tombstone.
     */
    private static Map<String, JsonNode> latestContent(KafkaTestClient kafka, String topic) {
        Map<String, JsonNode> latest = new java.util.HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() == null) {
                latest.put(key, null);
            } else {
                ObjectNode content = (ObjectNode) EventCodec.mapper().readTree(record.value());
                content.remove("eventId");
                content.remove("occurredAt");
                latest.put(key, content);
            }
        }
        return latest;
    }

    /** One past the last offset written to a one-partition topic (compaction never removes the last record). */
    private static long endOffset(KafkaTestClient kafka, String topic) {
        return kafka.readAll(topic).stream().mapToLong(record -> record.offset() + 1).max().orElse(0);
    }

    /** The latest readable model under key {@code active}, or null when the topic has none. */
    private static ComplexityModel latestModel(KafkaTestClient kafka) {
        ComplexityModel latest = null;
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.COMPLEXITY_MODEL)) {
            if (record.value() != null && record.key() != null
                    && ComplexityModel.KEY.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                latest = EventCodec.decode(record.value(), ComplexityModel.class);
            }
        }
        return latest;
    }

    private static RoutingDecision calibrationDecision(String servedTier, double score, boolean fallback,
            String reason) {
        String node = servedTier + "-1";
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId("req-" + UUID.randomUUID()).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-sonnet-4-5").tier(servedTier).cluster(servedTier + "-cluster").node(node)
                .nodesTried(List.of(node)).tokenCount(100).complexityScore(score).complexityModelVersion("m1")
                .policyVersion(1).rulesFired(List.of("tier_table:" + (score > 0.3 ? "sonnet" : "haiku")))
                .fallbackTriggered(fallback).fallbackReason(reason).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(100).outputTokens(30)
                .status(DecisionStatus.OK).httpStatus(200).build();
    }

    /** Plain HTTP/1.1 calls with any method and raw bytes. */
    static final class Http {

        private final String base;
        // A fresh connection per request: the JDK client's pooled HTTP/1.1 connections intermittently stalled a
        // request against Reactor Netty on a loaded machine (seen in several modules' ITs); no test here is about reuse
        private static HttpClient client() {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                    .build();
        }

        Http(String base) {
            this.base = base;
        }

        HttpResponse<String> get(String path) {
            return send("GET", path, null, null);
        }

        HttpResponse<String> send(String method, String path, byte[] body, String authorization) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body))
                    .header("content-type", "application/json");
            if (authorization != null) {
                request.header("authorization", authorization);
            }
            try {
                return client().send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + path + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static RoutingDecision decision(String requestId, String tier, boolean fallback) {
        String node = tier + "-1";
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId(requestId).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-" + tier).tier(tier).cluster(tier + "-cluster").node(node)
                .nodesTried(List.of(node)).tokenCount(12).complexityScore(0.1).complexityModelVersion("m1")
                .policyVersion(1).rulesFired(List.of("tier_table")).fallbackTriggered(fallback)
                .fallbackReason(fallback ? "node_unavailable" : null).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30)
                .status(DecisionStatus.OK).httpStatus(200).build();
    }
}
