package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.testing.FakeNode;
import dev.zerolayer.router.testing.FakeNode.Mode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Two router replicas sharing an admin token, against the real broker and a real local node: a Responses item answered
 * by one and named by {@code item_reference} at the other, or a response gone on from by {@code previous_response_id},
 * is resolved by the one that holds it (the request passed on whole, its answer streamed back unchanged); a request
 * already passed on, or one whose holder is gone, gets the 404 (400 {@code previous_response_not_found}).
 */
@ExtendWith(SharedKafka.class)
class ItemReferencesAcrossReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static HttpResponse<String> post(RunningService router, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/responses"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("content-type", "application/json").header("anthropic-routing-priority", "opus");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> send(RunningService router, String method, String responseId)
            throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/responses/" + responseId))
                .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String nextTurn(String itemId, boolean stream) {
        return "{\"model\":\"m\",\"stream\":" + stream + ",\"input\":[{\"role\":\"user\",\"content\":\"Hello?\"},"
                + "{\"type\":\"item_reference\",\"id\":\"" + itemId + "\"},{\"role\":\"user\",\"content\":\"And?\"}]}";
    }

    @Test
    @SuppressWarnings("unchecked")
    void anItemIsResolvedByTheReplicaThatAnsweredIt() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String nodeId = "opus-" + run;
        String[] shared = {"zerolayer.admin-token=zla-shared-admin-token-of-both-" + run,
                "zerolayer.router.warm-up.enabled=false"};
        try (FakeNode node = new FakeNode(Mode.OK, false, "hello from opus");
                KafkaTestClient kafka = new KafkaTestClient(SharedKafka.broker().bootstrapServers());
                RunningService a = RunningService.start(RouterApplication.class,
                        SharedKafka.broker().bootstrapServers(), shared[0], shared[1],
                        "zerolayer.replica-id=router-a-" + run);
                RunningService b = RunningService.start(RouterApplication.class,
                        SharedKafka.broker().bootstrapServers(), shared[0], shared[1],
                        "zerolayer.replica-id=router-b-" + run)) {
            // Given one Anthropic node on opus, seen by both replicas
            NodeHealth health = GatewayIT.health(nodeId, "opus", "opus-" + run, node.baseUrl(),
                    UpstreamProtocol.ANTHROPIC, NodeState.HEALTHY, 0.95, 0.1);
            PolicyDocument d = PolicyDocument.defaults();
            PolicyDocument document = new PolicyDocument(
                    List.of(new TierSpec("haiku", d.tiers().get(0).modelAliases(), List.of("opus-" + run)),
                            new TierSpec("sonnet", d.tiers().get(1).modelAliases(), List.of("opus-" + run)),
                            new TierSpec("opus", d.tiers().get(2).modelAliases(), List.of("opus-" + run))),
                    d.tierTable(), d.chains(), java.util.Map.of(), TransparencyIT.fresh(d.thresholds()), d.limits(), d.resilience(),
                    java.util.Map.of());
            FallbackPolicy policy = new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1,
                    System.currentTimeMillis(), "test", document);
            for (RunningService router : List.of(a, b)) {
                await().atMost(WAIT).until(() -> router.bean(dev.zerolayer.platform.topics.TopicGuard.class).ready());
            }
            kafka.publish(Topics.FALLBACK_POLICY, policy);
            kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health);
            for (RunningService router : List.of(a, b)) {
                CompactedView<NodeHealth> view = router.bean("nodeHealth", CompactedView.class);
                CompactedView<FallbackPolicy> policies = router.bean("fallbackPolicy", CompactedView.class);
                await().atMost(WAIT).until(() -> view.get(nodeId).isPresent() && policies.get(FallbackPolicy.KEY)
                        .map(p -> p.version() == policy.version()).orElse(false));
            }
            try {
                // When replica A answers a Responses request
                HttpResponse<String> first = post(a, "{\"model\":\"m\",\"input\":\"Hello?\"}");
                assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
                JsonNode message = EventCodec.mapper().readTree(first.body()).path("output").path(0);
                String itemId = message.path("id").stringValue();
                assertThat(itemId).startsWith("msg_").hasSizeGreaterThan(4 + 24);

                // Then the next turn naming its item at replica B is answered (B passes it to A), streamed as A
                // streams it, and the node gets the earlier answer as the assistant's turn
                int before = node.received().size();
                HttpResponse<String> streamed = post(b, nextTurn(itemId, true));
                assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
                assertThat(streamed.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
                assertThat(streamed.body()).startsWith("event: response.created\n")
                        .contains("event: response.completed");
                assertThat(node.received()).hasSize(before + 1);
                JsonNode replayed = EventCodec.mapper().readTree(node.received().get(before).body());
                assertThat(replayed.path("messages").path(1).path("role").stringValue()).isEqualTo("assistant");
                assertThat(replayed.path("messages").path(1).toString()).contains("hello from opus");
                HttpResponse<String> whole = post(b, nextTurn(itemId, false));
                assertThat(whole.statusCode()).as(whole.body()).isEqualTo(200);
                assertThat(EventCodec.mapper().readTree(whole.body()).path("object").stringValue())
                        .isEqualTo("response");

                // and a turn going on from A's response by previous_response_id at B is answered by A, with the
                // conversation A keeps; so is the turn after it (the answer A gave keeps naming A)
                String firstId = EventCodec.mapper().readTree(first.body()).path("id").stringValue();
                String responseId = firstId;
                for (int turn = 1; turn <= 2; turn++) {
                    int sent = node.received().size();
                    HttpResponse<String> onFrom = post(b, "{\"model\":\"m\",\"stream\":" + (turn == 2)
                            + ",\"previous_response_id\":\"" + responseId + "\",\"input\":\"And " + turn + "?\"}");
                    assertThat(onFrom.statusCode()).as(onFrom.body()).isEqualTo(200);
                    JsonNode got = EventCodec.mapper().readTree(node.received().get(sent).body());
                    assertThat(got.path("messages").size()).as(got.toString()).isEqualTo(1 + 2 * turn);
                    assertThat(got.path("messages").path(1).toString()).contains("hello from opus");
                    assertThat(got.path("messages").path(2 * turn).toString()).contains("And " + turn + "?");
                    if (turn == 1) {
                        JsonNode answered = EventCodec.mapper().readTree(onFrom.body());
                        assertThat(answered.path("previous_response_id").stringValue()).isEqualTo(responseId);
                        responseId = answered.path("id").stringValue();
                    }
                }

                // and A's stored response is read, its input items listed, and deleted through B (passed to A)
                HttpResponse<String> read = send(b, "GET", responseId);
                assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
                assertThat(EventCodec.mapper().readTree(read.body()).path("id").stringValue()).isEqualTo(responseId);
                HttpResponse<String> listed = send(b, "GET", responseId + "/input_items?order=asc&limit=100");
                assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
                JsonNode items = EventCodec.mapper().readTree(listed.body()).path("data");
                assertThat(items.size()).as(listed.body()).isGreaterThanOrEqualTo(3);
                assertThat(items.path(items.size() - 1).at("/content/0/text").stringValue()).isEqualTo("And 1?");
                assertThat(items.toString()).contains("hello from opus");
                HttpResponse<String> deleted = send(b, "DELETE", responseId);
                assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
                assertThat(EventCodec.mapper().readTree(deleted.body()).path("deleted").booleanValue()).isTrue();
                assertThat(send(b, "GET", responseId).statusCode()).isEqualTo(404);
                assertThat(send(a, "GET", responseId).statusCode()).isEqualTo(404);

                // and a request already passed on is not passed on again: B itself does not hold the item
                HttpResponse<String> passedOn = post(b, nextTurn(itemId, false), LeaderForwarding.FORWARDED_FROM,
                        "router-x");
                assertThat(passedOn.statusCode()).isEqualTo(404);
                assertThat(passedOn.body()).contains(itemId);

                // and an id whose tail was altered names nobody: 404, not a request to an address a client chose
                String altered = itemId.substring(0, itemId.length() - 2)
                        + (itemId.endsWith("AA") ? "BB" : "AA");
                HttpResponse<String> forged = post(b, nextTurn(altered, false));
                assertThat(forged.statusCode()).isEqualTo(404);

                // When A is gone, its items are gone with it: B answers the 404 it would give for any unknown item
                a.close();
                HttpResponse<String> orphaned = post(b, nextTurn(itemId, false));
                assertThat(orphaned.statusCode()).as(orphaned.body()).isEqualTo(404);
                assertThat(EventCodec.mapper().readTree(orphaned.body()).path("error").path("message").stringValue())
                        .contains(itemId);
                HttpResponse<String> orphanedTurn = post(b, "{\"model\":\"m\",\"previous_response_id\":\""
                        + firstId + "\",\"input\":\"And?\"}");
                assertThat(orphanedTurn.statusCode()).as(orphanedTurn.body()).isEqualTo(400);
                assertThat(EventCodec.mapper().readTree(orphanedTurn.body()).path("error").path("code").stringValue())
                        .isEqualTo("previous_response_not_found");
            } finally {
                kafka.send(Topics.TELEMETRY_NODE_HEALTH, nodeId, null);
            }
        }
    }
}
