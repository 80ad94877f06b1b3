package dev.zerolayer.router.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.router.RouterApplication;
import dev.zerolayer.router.testing.FakeNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Router access control with {@code ZEROLAYER_API_KEYS} set: every client endpoint answers no key and a wrong key with
 * 401 in its API's shape and the right key (either header, either configured key) with its result; client credentials
 * never reach the upstream node nor the health page; actuator endpoints other than health and prometheus do not exist.
 */
@ExtendWith(SharedKafka.class)
class AccessControlIT {

    private static final String KEY = "zl-key-" + UUID.randomUUID();
    private static final String SECOND_KEY = "zl-key2-" + UUID.randomUUID();
    private static final String ANTHROPIC = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
    private static final String OPENAI = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
    /** Mutating or revealing actuator endpoints that must not be exposed (404), plus the two that must (200). */
    static final List<String> HIDDEN_ACTUATORS = List.of("/actuator/env", "/actuator/beans", "/actuator/configprops",
            "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers", "/actuator/mappings",
            "/actuator/conditions", "/actuator/scheduledtasks", "/actuator/metrics", "/actuator/shutdown",
            "/actuator/bindings", "/actuator/functions");

    /** A fresh connection per request: pooled ones stall now and then after early refusals (ClientApiFuzzIT). */
    private static HttpClient http() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private record Endpoint(String path, String body, boolean openAi) {
    }

    @Test
    void everyClientEndpointDemandsAConfiguredKey() throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        try (KafkaTestClient kafka = new KafkaTestClient(servers);
             TestFleet fleet = new TestFleet();
             RunningService router = RunningService.start(RouterApplication.class, servers,
                     "zerolayer.api-keys=" + KEY + "," + SECOND_KEY)) {
            fleet.publishTo(router, kafka);
            List<Endpoint> endpoints = List.of(new Endpoint("/v1/messages", ANTHROPIC, false),
                    new Endpoint("/v1/chat/completions", OPENAI, true),
                    new Endpoint("/v1/messages/count_tokens", ANTHROPIC, false),
                    new Endpoint("/v1/route/explain", ANTHROPIC, false));
            for (Endpoint endpoint : endpoints) {
                // no key, a wrong key in either header, a key differing only in case: 401 in the API's shape
                assertUnauthorized(endpoint, post(router, endpoint.path(), endpoint.body()));
                assertUnauthorized(endpoint, post(router, endpoint.path(), endpoint.body(), "x-api-key", "wrong"));
                assertUnauthorized(endpoint, post(router, endpoint.path(), endpoint.body(), "authorization",
                        "Bearer wrong"));
                assertUnauthorized(endpoint, post(router, endpoint.path(), endpoint.body(), "x-api-key",
                        KEY.toUpperCase()));
                assertUnauthorized(endpoint, post(router, endpoint.path(), endpoint.body(), "authorization",
                        "Basic " + KEY));

                // the right key, as x-api-key or bearer, either configured key: the endpoint's result
                for (String[] credentials : List.of(new String[] {"x-api-key", KEY},
                        new String[] {"authorization", "Bearer " + SECOND_KEY})) {
                    HttpResponse<String> ok = post(router, endpoint.path(), endpoint.body(), credentials);
                    assertThat(ok.statusCode()).as("%s with %s: %s", endpoint.path(), credentials[0], ok.body())
                            .isEqualTo(200);
                    JsonNode body = EventCodec.mapper().readTree(ok.body());
                    switch (endpoint.path()) {
                        case "/v1/messages" -> assertThat(body.path("type").stringValue()).isEqualTo("message");
                        case "/v1/chat/completions" -> assertThat(body.path("object").stringValue())
                                .isEqualTo("chat.completion");
                        case "/v1/messages/count_tokens" -> assertThat(body.path("input_tokens").intValue()).isPositive();
                        default -> assertThat(body.path("tier").isString()).isTrue();
                    }
                }
            }

            // the client's credentials never travel to the node
            for (FakeNode node : fleet.nodes()) {
                for (FakeNode.Received received : node.received()) {
                    assertThat(received.headers().keySet()).noneMatch(h -> h.equalsIgnoreCase("x-api-key")
                            || h.equalsIgnoreCase("authorization"));
                    assertThat(received.body()).doesNotContain(KEY).doesNotContain(SECOND_KEY);
                }
            }
            assertThat(fleet.nodes().stream().mapToInt(n -> n.received().size()).sum()).isPositive();

            // operational endpoints: health and prometheus only, and neither shows a key
            HttpResponse<String> health = router.get("/actuator/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).doesNotContain(KEY).doesNotContain(SECOND_KEY);
            HttpResponse<String> prometheus = router.get("/actuator/prometheus");
            assertThat(prometheus.statusCode()).isEqualTo(200);
            assertThat(prometheus.body()).contains("zerolayer_requests_total").doesNotContain(KEY)
                    .doesNotContain(SECOND_KEY);
            for (String path : HIDDEN_ACTUATORS) {
                assertThat(router.get(path).statusCode()).as(path).isEqualTo(404);
            }
            HttpResponse<String> shutdown = post(router, "/actuator/shutdown", "{}");
            assertThat(shutdown.statusCode()).isIn(404, 405);
            assertThat(router.isActive()).isTrue();
        }
    }

    @Test
    void theModelListDemandsAKeyToo() throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        try (RunningService router = RunningService.start(RouterApplication.class, servers, "zerolayer.api-keys=" + KEY)) {
            HttpResponse<String> anonymous = router.get("/v1/models");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(EventCodec.mapper().readTree(anonymous.body()).path("error").path("type").stringValue())
                    .isEqualTo("authentication_error");
            HttpResponse<String> keyed = http().send(HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/models"))
                    .header("x-api-key", KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(keyed.statusCode()).isEqualTo(200);
        }
    }

    private static void assertUnauthorized(Endpoint endpoint, HttpResponse<String> response) {
        assertThat(response.statusCode()).as("%s: %s", endpoint.path(), response.body()).isEqualTo(401);
        JsonNode body = EventCodec.mapper().readTree(response.body());
        if (!endpoint.openAi()) {
            assertThat(body.path("type").stringValue()).isEqualTo("error");
        } else {
            assertThat(body.has("type")).isFalse();
            assertThat(body.path("error").has("param")).isTrue();
        }
        assertThat(body.path("error").path("type").stringValue()).isEqualTo("authentication_error");
        assertThat(response.body()).doesNotContain(KEY).doesNotContain(SECOND_KEY);
    }

    private HttpResponse<String> post(RunningService router, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router.baseUrl() + path))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
