package dev.zerolayer.fallback;

import dev.zerolayer.platform.testing.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackAlert.AlertStatus;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.fallback.dryrun.RecentDecisions;
import dev.zerolayer.fallback.monitor.FallbackCounts;
import dev.zerolayer.fallback.policy.PolicyReader;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * fallback-service against the real broker and over real HTTP, started once (and restarted once at the end) with a
 * clock the test moves: default policy published at first start; admin token and If-Match rules; YAML and JSON
 * changes published within a second; bad input refused with the field named; dry run; history and rollback; counts,
 * dead-lettering; the fallback-rate alert firing and resolving; history and active version kept across a restart,
 * which republishes nothing (policy and alert topics compared before and after) and after which publishing resumes;
 * only health and prometheus on the actuator.
 */
@ExtendWith(SharedKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FallbackServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOKEN = "it-admin-token";
    private static final String ADMIN = "Bearer " + TOKEN;

    /** The application with a clock the test moves instead of the system clock (test wiring only). */
    @Import(FallbackApplication.class)
    static class ClockedFallback {
        @Bean
        MutableClock testClock() {
            return new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        }
    }

    @TempDir
    static Path dataDir;

    private RunningService service;
    private KafkaTestClient kafka;
    private MutableClock clock;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    @BeforeAll
    void start() {
        kafka = new KafkaTestClient(servers());
        service = startService();
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
        kafka.close();
    }

    private RunningService startService() {
        RunningService started = RunningService.start(ClockedFallback.class, servers(),
                "zerolayer.admin-token=" + TOKEN, "zerolayer.fallback.data-dir=" + dataDir,
                "zerolayer.fallback.monitor-tick=100ms", "zerolayer.fallback.bootstrap-retry=200ms");
        clock = (MutableClock) started.bean(Clock.class);
        await().atMost(WAIT).until(() -> started.get("/v1/policy").statusCode() == 200);
        return started;
    }

    @Test
    @Order(1)
    void theBuiltInDefaultIsPublishedAsVersionOneOnAnEmptyTopic() {
        HttpResponse<String> policy = service.get("/v1/policy");
        assertThat(policy.headers().firstValue("ETag")).contains("\"1\"");
        assertThat(document(policy.body())).isEqualTo(PolicyDocument.defaults());

        FallbackPolicy published = latestPolicy();
        assertThat(published.version()).isEqualTo(1);
        assertThat(published.updatedBy()).isEqualTo("fallback-service");
        assertThat(published.document()).isEqualTo(PolicyDocument.defaults());

        HttpResponse<String> yaml = send("GET", "/v1/policy", null, Map.of("Accept", "application/yaml"));
        assertThat(yaml.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).contains("yaml"));
        assertThat(EventCodec.mapper().treeToValue(YAMLMapper.builder().build().readTree(yaml.body()),
                PolicyDocument.class)).isEqualTo(PolicyDocument.defaults());
        assertThat(service.get("/v1/policy/schema").body()).contains("\"$schema\"");
    }

    @Test
    @Order(2)
    void countsDecisionsAndFallbacksPerTierAndDeadLettersPoisonWithoutStopping() {
        FallbackCounts counts = service.bean(FallbackCounts.class);

        // When the router publishes two sonnet decisions, one of which fell back, and a plain haiku decision
        kafka.publish(Topics.ROUTER_DECISIONS, decision("sonnet", "k-counts", true, List.of("tier_table")));
        kafka.publish(Topics.ROUTER_DECISIONS, decision("sonnet", "k-counts", false, List.of("tier_table")));
        kafka.publish(Topics.ROUTER_DECISIONS, decision("haiku", "k-counts", false, List.of("tier_table")));

        // Then it counts them per tier
        await().atMost(WAIT).until(() -> counts.tier("sonnet").equals(TierStats.of(2, 1))
                && counts.tier("haiku").equals(TierStats.of(1, 0)));

        // When junk arrives on the decisions topic, followed on the same partition by a good haiku fallback
        RoutingDecision after = decision("haiku", "k-counts", true, List.of("tier_table"));
        kafka.send(Topics.ROUTER_DECISIONS, after.requestId(), "{not json".getBytes(StandardCharsets.UTF_8));
        kafka.publish(Topics.ROUTER_DECISIONS, after);

        // Then the consumer keeps going, and the junk is on the dead-letter topic with its reason
        await().atMost(WAIT).until(() -> counts.tier("haiku").equals(TierStats.of(2, 1)));
        String dlq = Topics.deadLetterTopic(Topics.ROUTER_DECISIONS, Topics.FALLBACK);
        await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq))
                .anySatisfy(record -> {
                    assertThat(KafkaTestClient.header(record, "x-exception-message")).contains("malformed");
                    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(after.requestId());
                }));
        assertThat(counts.total()).isEqualTo(TierStats.of(4, 2));

        // And the endpoint, health and metrics show it
        assertThat(service.get("/v1/fallback/stats").body())
                .contains("\"sonnet\":{\"decisions\":2,\"fallbacks\":1,\"fallbackRate\":0.5}")
                .contains("\"total\":{\"decisions\":4,\"fallbacks\":2,\"fallbackRate\":0.5}")
                .contains("\"window\":{");
        assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(service.get("/actuator/prometheus").body())
                .contains("zerolayer_events_rejected_total{reason=\"malformed\"");

        // And the actuator shows health and prometheus only
        for (String path : List.of("/actuator/env", "/actuator/beans", "/actuator/configprops", "/actuator/heapdump",
                "/actuator/threaddump", "/actuator/loggers", "/actuator/mappings", "/actuator/shutdown")) {
            assertThat(service.get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(send("POST", "/actuator/shutdown", null, Map.of("Authorization", ADMIN)).statusCode())
                .isEqualTo(404);
        assertThat(service.get("/v1/policy").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(3)
    void changesNeedTheAdminTokenAndTheCurrentETag() {
        String body = PolicyReader.toTree(PolicyDocument.defaults()).toString();
        assertError(put(body, "application/json", null, "\"1\""), 401, "authentication_error", "admin token");
        assertError(put(body, "application/json", "Bearer wrong", "\"1\""), 403, "permission_error", "not valid");
        assertError(put(body, "application/json", ADMIN, null), 428, "invalid_request_error", "If-Match");
        assertError(put(body, "application/json", ADMIN, "\"7\""), 412, "invalid_request_error", "version 7");
        assertError(put(body, "text/plain", ADMIN, "\"1\""), 415, "invalid_request_error", "Content-Type");
        assertThat(service.get("/v1/policy").headers().firstValue("ETag")).contains("\"1\"");
    }

    @Test
    @Order(4)
    void yamlAndJsonChangesArePublishedAndVisibleToAConsumerWithinASecond() {
        try (PolicyWatcher watcher = new PolicyWatcher()) {
            // When an operator sends the policy as YAML with one threshold changed
            String yaml = YAMLMapper.builder().build().writeValueAsString(PolicyReader.toTree(PolicyDocument.defaults()))
                    .replace("clusterHealthMin: 0.7", "clusterHealthMin: 0.65");
            HttpResponse<String> put = put(yaml, "application/yaml", ADMIN, "\"1\"");
            long answeredAt = System.nanoTime();

            // Then it is version 2, audited with the changed path, and a consumer sees it within a second
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(put.headers().firstValue("ETag")).contains("\"2\"");
            JsonNode result = json(put.body());
            assertThat(result.get("version").asLong()).isEqualTo(2);
            assertThat(result.get("by").asString()).startsWith("admin:");
            assertThat(result.get("changes").toString()).contains("/thresholds/clusterHealthMin");
            FallbackPolicy seen = watcher.awaitVersion(2, Duration.ofSeconds(1));
            long visibleMs = (System.nanoTime() - answeredAt) / 1_000_000;
            System.out.println("policy version 2 visible to a consumer " + visibleMs + " ms after the PUT answered");
            assertThat(seen.document().thresholds().clusterHealthMin()).isEqualTo(0.65);
            assertThat(service.get("/v1/policy").headers().firstValue("ETag")).contains("\"2\"");

            // When the next change comes as JSON against the new ETag
            ObjectNode tree = (ObjectNode) json(service.get("/v1/policy").body());
            ((ObjectNode) tree.get("thresholds")).put("peakLoadMark", 0.85);
            HttpResponse<String> second = put(tree.toString(), "application/json; charset=utf-8", ADMIN, "\"2\"");
            assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
            assertThat(second.headers().firstValue("ETag")).contains("\"3\"");
            assertThat(watcher.awaitVersion(3, Duration.ofSeconds(1)).document().thresholds().peakLoadMark())
                    .isEqualTo(0.85);
        }
    }

    @Test
    @Order(5)
    void badInputIsRefusedNamingTheFieldAndLeavesThePolicyUntouched() {
        assertError(put("tiers:\n  - name: haiku\n    clusters: [oops\n", "application/yaml", ADMIN, "\"3\""), 400,
                "invalid_request_error", "invalid YAML at line");
        assertError(put(edited(t -> ((ObjectNode) t.get("thresholds")).put("clusterHealthMin", 1.5)),
                "application/json", ADMIN, "\"3\""), 400, "invalid_request_error", "/thresholds/clusterHealthMin");
        assertError(put(edited(t -> ((ArrayNode) t.get("chains").get("opus")).add("opus")), "application/json",
                ADMIN, "\"3\""), 400, "invalid_request_error", "/chains/opus/2: cycle");
        assertError(put(edited(t -> ((ObjectNode) t.get("thresholds")).put("peakBandLow", 0.6)),
                "application/json", ADMIN, "\"3\""), 400, "invalid_request_error", "/thresholds/peakBandLow");
        assertError(put(edited(t -> ((ArrayNode) t.get("tiers").get(2).get("clusters")).removeAll()),
                "application/json", ADMIN, "\"3\""), 400, "invalid_request_error", "/tiers/2/clusters");
        HttpResponse<String> refused = put(edited(t -> t.put("bogus", true)), "application/json", ADMIN, "\"3\"");
        assertThat(json(refused.body()).at("/error/errors/0/field").asString()).isEqualTo("/bogus");

        assertError(put("x".repeat(400_000), "application/json", ADMIN, "\"3\""), 413, "request_too_large",
                "too large");

        assertThat(service.get("/v1/policy").headers().firstValue("ETag")).contains("\"3\"");
        assertThat(latestPolicy().version()).isEqualTo(3);
    }

    @Test
    @Order(6)
    void aDryRunReplaysTheLatestDecisionsThroughTheNewTierTableAndChangesNothing() {
        RecentDecisions recent = service.bean(RecentDecisions.class);
        long before = recent.added();
        List<RoutingDecision> decisions = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            decisions.add(routed("sonnet", 1000, 0.5, null));
        }
        for (int i = 0; i < 10; i++) {
            decisions.add(routed("haiku", 100, 0.1, null));
        }
        for (int i = 0; i < 5; i++) {
            decisions.add(routed("opus", 1000, 0.5, "opus"));
        }
        decisions.forEach(d -> kafka.publish(Topics.ROUTER_DECISIONS, d));
        await().atMost(WAIT).until(() -> recent.added() - before == 45);

        // A proposal that widens haiku's row to sonnet's bounds, and sonnet's beyond
        String proposal = edited(t -> {
            ((ObjectNode) t.get("tierTable").get(0)).put("maxTokens", 2048).put("maxComplexity", 0.6);
            ((ObjectNode) t.get("tierTable").get(1)).put("maxTokens", 4096).put("maxComplexity", 0.8);
        });
        HttpResponse<String> dry = send("PUT", "/v1/policy?dryRun=true", proposal,
                Map.of("Authorization", ADMIN, "Content-Type", "application/json"));

        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        JsonNode report = json(dry.body());
        assertThat(report.get("dryRun").asBoolean()).isTrue();
        assertThat(report.get("replayed").asInt()).isEqualTo(45);
        assertThat(report.get("changedTier").asInt()).isEqualTo(30);
        assertThat(report.get("transitions").toString()).isEqualTo("{\"sonnet->haiku\":30}");
        assertThat(report.get("changes").toString()).contains("/tierTable/0/maxTokens");
        assertThat(service.get("/v1/policy").headers().firstValue("ETag")).contains("\"3\"");
        assertThat(latestPolicy().version()).isEqualTo(3);

        assertError(send("PUT", "/v1/policy?dryRun=true", proposal, Map.of("Content-Type", "application/json")),
                401, "authentication_error", "admin token");
    }

    @Test
    @Order(7)
    void historyListsEveryVersionWithWhoWhenAndWhatAndRollbackRestoresOne() {
        JsonNode history = json(service.get("/v1/policy/history").body());
        assertThat(history.get("activeVersion").asLong()).isEqualTo(3);
        JsonNode versions = history.get("versions");
        assertThat(versions).extracting(v -> v.get("version").asLong()).containsExactly(3L, 2L, 1L);
        assertThat(versions.get(2).get("action").asString()).isEqualTo("initial");
        assertThat(versions.get(1).get("by").asString()).startsWith("admin:");
        assertThat(versions.get(1).get("at").asString()).isNotBlank();
        assertThat(versions.get(1).get("changes").toString()).contains("/thresholds/clusterHealthMin");
        assertThat(versions.get(0).get("changes").toString()).contains("/thresholds/peakLoadMark");
        assertThat(json(service.get("/v1/policy/history/2").body()).at("/thresholds/clusterHealthMin").asDouble())
                .isEqualTo(0.65);

        assertError(send("POST", "/v1/policy/rollback/1", null, Map.of("Authorization", ADMIN)), 428,
                "invalid_request_error", "If-Match");
        assertError(send("POST", "/v1/policy/rollback/1", null, Map.of("Authorization", "Bearer nope",
                "If-Match", "\"3\"")), 403, "permission_error", "not valid");
        assertError(send("POST", "/v1/policy/rollback/99", null, Map.of("Authorization", ADMIN, "If-Match", "\"3\"")),
                404, "not_found_error", "99");

        HttpResponse<String> rolled = send("POST", "/v1/policy/rollback/1", null,
                Map.of("Authorization", ADMIN, "If-Match", "\"3\""));
        assertThat(rolled.statusCode()).as(rolled.body()).isEqualTo(200);
        assertThat(rolled.headers().firstValue("ETag")).contains("\"4\"");
        assertThat(json(rolled.body()).get("restoredVersion").asLong()).isEqualTo(1);
        assertThat(document(service.get("/v1/policy").body())).isEqualTo(PolicyDocument.defaults());
        await().atMost(Duration.ofSeconds(5)).until(() -> latestPolicy().version() == 4);
        assertThat(latestPolicy().document()).isEqualTo(PolicyDocument.defaults());
    }

    @Test
    @Order(8)
    void theAlertFiresWhenTheRateStaysAboveForFiveMinutesAndResolvesWhenItDrops() {
        // Given alerting from 20 decisions on (the rest of the policy's alerting: 5 % over 5 min for 5 min)
        HttpResponse<String> put = put(edited(t -> ((ObjectNode) t.get("alerting")).put("minDecisions", 20)),
                "application/json", ADMIN, "\"4\"");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(10)); // every earlier decision leaves the window

        // When 20 % of opus decisions of one key fall back, now and 150 s later
        publishOpus(40, 8);
        await().atMost(WAIT).until(() -> stats().at("/window/tiers/opus/decisions").asLong() == 40
                && stats().at("/window/tiers/opus/state").asString().equals("pending"));
        clock.advance(Duration.ofSeconds(150));
        publishOpus(40, 8);
        await().atMost(WAIT).until(() -> stats().at("/window/tiers/opus/decisions").asLong() == 80);
        assertThat(alerts()).isEmpty();

        // Then 300 s after it went above, the alert fires for the tier and the key, with a gauge
        clock.advance(Duration.ofSeconds(150));
        await().atMost(WAIT).until(() -> alerts().stream().filter(a -> a.status() == AlertStatus.FIRING).count() == 2);
        assertThat(alerts()).extracting(FallbackAlert::scope).containsExactlyInAnyOrder("tier:opus", "apiKey:k-alert");
        FallbackAlert firing = alerts().get(0);
        assertThat(firing.fallbackRate()).isEqualTo(0.2);
        assertThat(firing.threshold()).isEqualTo(0.05);
        assertThat(firing.windowSeconds()).isEqualTo(300);
        assertThat(stats().get("alerts").toString()).contains("tier:opus").contains("apiKey:k-alert");
        assertThat(service.get("/actuator/prometheus").body())
                .containsPattern("zerolayer_fallback_alert_firing\\{[^}]*scope=\"tier:opus\"[^}]*} 1.0")
                .containsPattern("zerolayer_fallback_alerts_firing\\{[^}]*} 2.0");

        // When the rate drops back below 5 %
        publishOpus(200, 0);

        // Then both resolve
        await().atMost(WAIT).until(() -> alerts().stream().filter(a -> a.status() == AlertStatus.RESOLVED).count()
                == 2);
        assertThat(stats().get("alerts")).isEmpty();
        assertThat(service.get("/actuator/prometheus").body())
                .containsPattern("zerolayer_fallback_alert_firing\\{[^}]*scope=\"tier:opus\"[^}]*} 0.0");
    }

    @Test
    @Order(9)
    void aRestartKeepsTheHistoryAndTheActiveVersion() {
        long active = latestPolicy().version();
        service.close();
        // (stopped) what the policy topic (compacted) and the alerts topic hold before the restart
        Map<String, JsonNode> policyBefore = latestContent(Topics.FALLBACK_POLICY);
        Map<String, JsonNode> alertsBefore = latestContent(Topics.FALLBACK_ALERTS);
        long policyEnd = endOffset(Topics.FALLBACK_POLICY);
        long alertsEnd = endOffset(Topics.FALLBACK_ALERTS);
        assertThat(alertsBefore).containsKeys("tier:opus", "apiKey:k-alert");
        service = startService();

        assertThat(service.get("/v1/policy").headers().firstValue("ETag")).contains("\"" + active + "\"");
        JsonNode versions = json(service.get("/v1/policy/history").body()).get("versions");
        assertThat(versions).extracting(v -> v.get("version").asLong()).containsExactly(5L, 4L, 3L, 2L, 1L);
        assertThat(versions.get(1).get("action").asString()).isEqualTo("rollback");
        assertThat(latestPolicy().version()).isEqualTo(active);
        assertThat(service.get("/actuator/health").body()).contains("\"policyStore\"")
                .contains("\"version\":" + active);

        // The rebuilt service consumes again (a decision counted; the monitor ticks every 100 ms meanwhile) and
        // republished nothing: same latest value per key, no record written, no alert re-sent
        FallbackCounts counts = service.bean(FallbackCounts.class);
        TierStats haiku = counts.tier("haiku");
        kafka.publish(Topics.ROUTER_DECISIONS, decision("haiku", "k-restart", false, List.of("tier_table")));
        await().atMost(WAIT).until(() -> counts.tier("haiku").decisions() == haiku.decisions() + 1);
        assertThat(latestContent(Topics.FALLBACK_POLICY)).isEqualTo(policyBefore);
        assertThat(latestContent(Topics.FALLBACK_ALERTS)).isEqualTo(alertsBefore);
        assertThat(endOffset(Topics.FALLBACK_POLICY)).isEqualTo(policyEnd);
        assertThat(endOffset(Topics.FALLBACK_ALERTS)).isEqualTo(alertsEnd);

        // And it resumes publishing: the next change is on the topic
        HttpResponse<String> next = put(edited(t -> ((ObjectNode) t.get("resilience")).put("hopLimit", 2)),
                "application/json", ADMIN, "\"" + active + "\"");
        assertThat(next.headers().firstValue("ETag")).contains("\"" + (active + 1) + "\"");
        assertThat(latestPolicy().version()).isEqualTo(active + 1);
        assertThat(latestPolicy().document().resilience().hopLimit()).isEqualTo(2);
        assertThat(latestContent(Topics.FALLBACK_POLICY).keySet()).containsExactly(FallbackPolicy.KEY);
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private void publishOpus(int count, int fallbacks) {
        for (int i = 0; i < count; i++) {
            RoutingDecision d = decision("opus", "k-alert", i < fallbacks, List.of("tier_table:opus"));
            kafka.publish(Topics.ROUTER_DECISIONS, d);
        }
    }

    private List<FallbackAlert> alerts() {
        List<FallbackAlert> alerts = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.FALLBACK_ALERTS)) {
            alerts.add(EventCodec.decode(record.value(), FallbackAlert.class));
        }
        return alerts;
    }

    /**
     * The latest value per key of a topic, as JSON without its envelope (event id and time, which a republication may
     * renew); null for a tombstone.
     */
    private Map<String, JsonNode> latestContent(String topic) {
        Map<String, JsonNode> latest = new java.util.HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() == null) {
                latest.put(key, null);
            } else {
                ObjectNode content = (ObjectNode) json(new String(record.value(), StandardCharsets.UTF_8));
                content.remove("eventId");
                content.remove("occurredAt");
                latest.put(key, content);
            }
        }
        return latest;
    }

    /** One past the last offset written to a one-partition topic (compaction never removes the last record). */
    private long endOffset(String topic) {
        return kafka.readAll(topic).stream().mapToLong(record -> record.offset() + 1).max().orElse(0);
    }

    private JsonNode stats() {
        return json(service.get("/v1/fallback/stats").body());
    }

    private FallbackPolicy latestPolicy() {
        Optional<FallbackPolicy> latest = Optional.empty();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.FALLBACK_POLICY)) {
            latest = Optional.of(EventCodec.decode(record.value(), FallbackPolicy.class));
        }
        return latest.orElseThrow();
    }

    private static String edited(java.util.function.Consumer<ObjectNode> edit) {
        ObjectNode tree = (ObjectNode) PolicyReader.toTree(PolicyDocument.defaults());
        edit.accept(tree);
        return tree.toString();
    }

    private HttpResponse<String> put(String body, String contentType, String authorization, String ifMatch) {
        Map<String, String> headers = new java.util.HashMap<>();
        headers.put("Content-Type", contentType);
        if (authorization != null) {
            headers.put("Authorization", authorization);
        }
        if (ifMatch != null) {
            headers.put("If-Match", ifMatch);
        }
        return send("PUT", "/v1/policy", body, headers);
    }

    private HttpResponse<String> send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertError(HttpResponse<String> response, int status, String type, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response.body());
        assertThat(body.get("type").asString()).isEqualTo("error");
        assertThat(body.at("/error/type").asString()).isEqualTo(type);
        assertThat(body.at("/error/message").asString()).contains(message);
    }

    private static PolicyDocument document(String body) {
        return EventCodec.mapper().readValue(body, PolicyDocument.class);
    }

    private static JsonNode json(String body) {
        return EventCodec.mapper().readTree(body);
    }

    private RoutingDecision routed(String tier, int tokens, double complexity, String pin) {
        List<String> rules = new ArrayList<>(List.of("tier_table:" + (tokens <= 512 ? "haiku" : "sonnet")));
        if (pin != null) {
            rules.add("pin:" + pin);
        }
        return decision(tier, "k-dry", false, rules, tokens, complexity);
    }

    private RoutingDecision decision(String tier, String key, boolean fallback, List<String> rules) {
        return decision(tier, key, fallback, rules, 12, 0.1);
    }

    private RoutingDecision decision(String tier, String key, boolean fallback, List<String> rules, int tokens,
            double complexity) {
        String node = tier + "-1";
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(clock.instant())
                .requestId("req-" + UUID.randomUUID()).sessionHash("s").apiKeyId(key).clientApi("anthropic")
                .requestedModel("claude-" + tier).tier(tier).cluster(tier + "-cluster").node(node)
                .nodesTried(List.of(node)).tokenCount(tokens).complexityScore(complexity).complexityModelVersion("m1")
                .policyVersion(1).rulesFired(rules).fallbackTriggered(fallback)
                .fallbackReason(fallback ? "target_cluster_unavailable" : null).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30)
                .status(DecisionStatus.OK).httpStatus(200).build();
    }

    /** A plain consumer positioned at the end of fallback.policy.v1, as a router's view would be. */
    private static final class PolicyWatcher implements AutoCloseable {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private FallbackPolicy latest;

        PolicyWatcher() {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers());
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.FALLBACK_POLICY).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
        }

        FallbackPolicy awaitVersion(long version, Duration within) {
            await().atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    latest = EventCodec.decode(record.value(), FallbackPolicy.class, FallbackPolicy.KEY);
                }
                return latest != null && latest.version() == version;
            });
            return latest;
        }

        @Override
        public void close() {
            consumer.close(Duration.ofSeconds(2));
        }
    }
}
