package dev.zerolayer.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.complexity.model.ModelOwner;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two complexity-service replicas starting together on a broker of their own: the built-in model is published once,
 * by the replica that leads; an upload sent to the other is passed to the leader and becomes active on both (and is
 * refused with 503 and Retry-After while the leader cannot be reached); when the leader stops, the other takes uploads.
 */
class ComplexityReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String ADMIN = "Bearer it-admin";

    private static RunningService replica(KraftBroker broker, String name) {
        return RunningService.start(ComplexityApplication.class, broker.bootstrapServers(),
                "zerolayer.admin-token=it-admin", "zerolayer.complexity.max-body-size=4MB",
                "zerolayer.replica-id=" + name);
    }

    @Test
    void theLeaderAloneWritesModelsAndTheOtherTakesOverWhenItStops(@TempDir Path kafkaDir) throws Exception {
        try (KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
             RunningService a = replica(broker, "complexity-a");
             RunningService b = replica(broker, "complexity-b")) {

            // Given two replicas started on an empty model topic
            await().atMost(WAIT).until(() -> a.bean(ModelOwner.class).ready() && b.bean(ModelOwner.class).ready());
            RunningService leader = a.bean(Leadership.class).isLeader() ? a : b;
            RunningService follower = leader == a ? b : a;

            // Then exactly one of them published the built-in model, once
            assertThat(models(kafka)).hasSize(1);
            assertThat(leader.bean(ModelOwner.class).publishedBuiltIn()).isTrue();
            assertThat(follower.bean(ModelOwner.class).publishedBuiltIn()).isFalse();
            assertThat(follower.bean(Leadership.class).isLeader()).isFalse();

            // When an upload is sent to the follower
            byte[] upload = ComplexityServiceIT.model("cx-replicas-1", 1.1, m -> { });
            HttpResponse<String> passed = new ComplexityServiceIT.Http(follower.baseUrl())
                    .send("PUT", "/v1/complexity/model", upload, ADMIN);

            // Then the follower passed it to the leader, which published it, and it is active on both
            assertThat(passed.statusCode()).as(passed.body()).isEqualTo(200);
            assertThat(passed.headers().firstValue(LeaderForwarding.ANSWERED_BY))
                    .hasValue(leader == a ? "complexity-a" : "complexity-b");
            assertThat(passed.body()).contains("\"modelVersion\":\"cx-replicas-1\"");
            await().atMost(WAIT).until(() -> follower.get("/v1/complexity/model").body()
                    .contains("\"modelVersion\":\"cx-replicas-1\""));

            // When the leader still leads but cannot be reached over HTTP, and an upload is sent to the follower
            leader.stopWebServer();
            HttpResponse<String> refused = new ComplexityServiceIT.Http(follower.baseUrl()).send("PUT",
                    "/v1/complexity/model", ComplexityServiceIT.model("cx-replicas-x", 1.3, m -> { }), ADMIN);

            // Then the follower refuses it for now
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(refused.body()).contains("\"type\":\"api_error\"");

            // When the leader stops, the follower takes uploads
            leader.close();
            await().atMost(WAIT).until(() -> follower.bean(Leadership.class).isLeader());
            HttpResponse<String> next = new ComplexityServiceIT.Http(follower.baseUrl()).send("PUT",
                    "/v1/complexity/model", ComplexityServiceIT.model("cx-replicas-2", 1.2, m -> { }), ADMIN);
            assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
            assertThat(models(kafka)).extracting(ComplexityModel::modelVersion).endsWith("cx-replicas-1",
                    "cx-replicas-2");
            assertThat(models(kafka)).hasSize(3);
        }
    }

    private static List<ComplexityModel> models(KafkaTestClient kafka) {
        return kafka.readAll(Topics.COMPLEXITY_MODEL).stream().filter(r -> r.value() != null)
                .map(r -> EventCodec.decode(r.value(), ComplexityModel.class)).toList();
    }
}
