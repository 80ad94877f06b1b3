package dev.zerolayer.fallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.fallback.policy.PolicyReader;
import dev.zerolayer.fallback.policy.PolicyStore;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two fallback-service replicas against a real broker of their own (the shared one's policy topic belongs to the
 * single-replica test, which starts from an empty topic): one leads and writes, the other passes writes to it (and
 * refuses them with 503 and Retry-After while the leader cannot be reached) and serves and records every version; when
 * the leader stops the other takes over, reconciles and writes the next version; no version is published twice or by
 * two writers.
 */
class FallbackReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ADMIN = "Bearer it-admin-token";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static RunningService replica(KraftBroker broker, String name, Path dataDir) {
        return RunningService.start(FallbackApplication.class, broker.bootstrapServers(),
                "zerolayer.admin-token=it-admin-token", "zerolayer.fallback.data-dir=" + dataDir,
                "zerolayer.replica-id=" + name, "zerolayer.fallback.bootstrap-retry=200ms");
    }

    @Test
    void oneReplicaWritesTheOtherServesAndTakesOverWhenTheLeaderStops(@TempDir Path kafkaDir, @TempDir Path dirA,
            @TempDir Path dirB) throws Exception {
        try (KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
             RunningService a = replica(broker, "fallback-a", dirA);
             RunningService b = replica(broker, "fallback-b", dirB)) {

            // Given two replicas, exactly one of which takes writes, and both serving the same version
            await().atMost(WAIT).until(() -> writing(a) ^ writing(b));
            RunningService leader = writing(a) ? a : b;
            RunningService follower = leader == a ? b : a;
            assertThat(follower.bean(Leadership.class).isLeader()).isFalse();
            long version = version(leader);
            await().atMost(WAIT).until(() -> follower.get("/v1/policy").statusCode() == 200
                    && version(follower) == version);

            // When a change is sent to the follower, then the same change, under the same If-Match, to the leader
            String body = edited(t -> ((ObjectNode) t.get("alerting")).put("minDecisions", 77));
            HttpResponse<String> passed = put(follower, body, version);
            HttpResponse<String> again = put(leader, body, version);

            // Then the follower passed it to the leader, which applied it once: the repeat is stale, not a new version
            assertThat(passed.statusCode()).as(passed.body()).isEqualTo(200);
            assertThat(passed.headers().firstValue(LeaderForwarding.ANSWERED_BY)).hasValue(name(leader, a));
            assertThat(passed.headers().firstValue("ETag")).hasValue("\"" + (version + 1) + "\"");
            assertThat(again.statusCode()).as(again.body()).isEqualTo(412);
            await().atMost(WAIT).until(() -> version(follower) == version + 1);
            assertThat(follower.get("/v1/policy/history").body()).contains("\"version\":" + (version + 1));

            // When a rollback is sent to the follower
            HttpResponse<String> rollback = post(follower, "/v1/policy/rollback/" + version, version + 1);

            // Then it too is the leader's: version + 2 holds the first document again
            assertThat(rollback.statusCode()).as(rollback.body()).isEqualTo(200);
            assertThat(rollback.headers().firstValue(LeaderForwarding.ANSWERED_BY)).hasValue(name(leader, a));
            await().atMost(WAIT).until(() -> version(follower) == version + 2);

            // When the leader still leads but its HTTP server is down, and a change is sent to the follower
            leader.stopWebServer();
            HttpResponse<String> refused = put(follower, body, version + 2);

            // Then the follower refuses it for now, in the API's shape, and nothing is published
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(refused.body()).contains("\"type\":\"api_error\"").contains("another replica leads");
            assertThat(version(follower)).isEqualTo(version + 2);

            // When the leader stops
            long stopped = System.nanoTime();
            leader.close();

            // Then the other takes writes, and the next version is its own
            await().atMost(WAIT).until(() -> writing(follower));
            long takeoverMillis = (System.nanoTime() - stopped) / 1_000_000;
            System.out.printf("fallback-service takeover after a leader's clean stop: %d ms%n", takeoverMillis);
            HttpResponse<String> next = put(follower,
                    edited(t -> ((ObjectNode) t.get("alerting")).put("minDecisions", 78)), version + 2);
            assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
            assertThat(version(follower)).isEqualTo(version + 3);

            // and across both terms no version was published twice, none went back, and each had one writer
            List<FallbackPolicy> published = kafka.readAll(Topics.FALLBACK_POLICY).stream()
                    .map(r -> EventCodec.decode(r.value(), FallbackPolicy.class)).toList();
            List<Long> versions = published.stream().map(FallbackPolicy::version).toList();
            assertThat(versions).doesNotHaveDuplicates().isSorted();
            FallbackPolicy first = find(published, version + 1);
            FallbackPolicy rolledBack = find(published, version + 2);
            FallbackPolicy second = find(published, version + 3);
            assertThat(first.writer().replica()).isEqualTo(name(leader, a));
            assertThat(rolledBack.writer().replica()).isEqualTo(name(leader, a));
            assertThat(second.writer().replica()).isEqualTo(name(follower, a));
            assertThat(second.writer().generation()).isGreaterThan(first.writer().generation());
        }
    }

    private static String name(RunningService replica, RunningService a) {
        return replica == a ? "fallback-a" : "fallback-b";
    }

    private static boolean writing(RunningService replica) {
        return replica.isActive() && replica.bean(PolicyStore.class).writing();
    }

    /** The active version, from the ETag of {@code GET /v1/policy}. */
    private static long version(RunningService replica) {
        return Long.parseLong(replica.get("/v1/policy").headers().firstValue("ETag").orElseThrow()
                .replace("\"", ""));
    }

    private static FallbackPolicy find(List<FallbackPolicy> published, long version) {
        return published.stream().filter(p -> p.version() == version).findFirst().orElseThrow();
    }

    private HttpResponse<String> put(RunningService replica, String body, long ifMatch) throws IOException,
            InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/policy"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header("Authorization", ADMIN).header("If-Match", "\"" + ifMatch + "\"")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(RunningService replica, String path, long ifMatch) throws IOException,
            InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(replica.baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("Authorization", ADMIN)
                .header("If-Match", "\"" + ifMatch + "\"").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String edited(java.util.function.Consumer<ObjectNode> edit) {
        ObjectNode tree = (ObjectNode) PolicyReader.toTree(PolicyDocument.defaults());
        edit.accept(tree);
        return tree.toString();
    }
}
