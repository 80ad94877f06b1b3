package dev.zerolayer.router.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.contracts.testing.SeededFuzz;
import dev.zerolayer.router.RouterApplication;
import dev.zerolayer.router.wire.ClientApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * The client APIs fuzzed over real HTTP against a running router with a defined fleet (one healthy fake node per
 * tier): damaged and random bodies, odd content types, pins, debug/trace, session and auth headers on all four POST
 * endpoints. Every answer comes within the per-request timeout, is never a 5xx, and every error is in the API's own
 * shape without a stack trace. Cases: {@code -Dzerolayer.fuzz.cases} (default 400).
 */
@ExtendWith(SharedKafka.class)
class ClientApiFuzzIT {

    private static final int CASES = 400;
    private static final Duration PER_REQUEST = Duration.ofSeconds(15);
    private static final String[] PATHS = {"/v1/messages", "/v1/chat/completions", "/v1/messages/count_tokens",
        "/v1/route/explain", "/v1/responses", "/v1/completions"};
    private static final String[] CONTENT_TYPES = {"application/json", "application/json", "application/json",
        "application/json", "application/json", "application/json", "application/json; charset=utf-8",
        "application/vnd.api+json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
        "application/json; charset=latin1", "a/b/c", ";;;", "json", "", "application/octet-stream"};

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void fuzzedRequestsNeverGetA5xxAHangOrAnUnshapedError() throws Exception {
        // A fresh connection per request: keeps this test about bodies and headers (pooled connections: see below)
        fuzzRouter("router HTTP client APIs", () -> HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build());
    }

    @Test
    void fuzzedRequestsOnPooledConnectionsNeverStall() throws Exception {
        HttpClient pooled = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        fuzzRouter("router HTTP client APIs, pooled connections", () -> pooled);
    }

    private void fuzzRouter(String surface, java.util.function.Supplier<HttpClient> clients) throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        Map<Integer, Integer> statuses = new TreeMap<>();
        try (KafkaTestClient kafka = new KafkaTestClient(servers);
             TestFleet fleet = new TestFleet();
             RunningService router = RunningService.start(RouterApplication.class, servers)) {
            fleet.publishTo(router, kafka);
            SeededFuzz.run(surface, CASES, (random, i) -> {
                String path = PATHS[random.nextInt(PATHS.length)];
                boolean openAi = ClientApi.forPath(path).openAiShaped();
                byte[] body = random.nextInt(5) == 0
                        ? EventCodec.mapper().writeValueAsBytes(ClientBodies.forPath(path, random))
                        : ClientBodies.damage(random, ClientBodies.forPath(path, random));
                String[] headers = headers(random);
                long sent = System.nanoTime();
                HttpResponse<String> response = send(clients.get(), router, path, body, headers);
                if (Boolean.getBoolean("zerolayer.fuzz.verbose")) {
                    System.out.printf("case %d: %d in %d ms: %s%n", i, response.statusCode(),
                            (System.nanoTime() - sent) / 1_000_000, describe(path, body, headers));
                }
                statuses.merge(response.statusCode(), 1, Integer::sum);
                checkAnswer(openAi, path.equals("/v1/responses"), response);
            });
            System.out.println(surface + " statuses: " + statuses);
            assertThat(statuses).containsKey(200).containsKey(400);
            // the router is still healthy and serving after the run
            assertThat(router.get("/actuator/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void bodiesBeyondTheJsonLimitsGetA400() throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        try (RunningService router = RunningService.start(RouterApplication.class, servers)) {
            for (String body : ClientBodies.beyondJsonLimits()) {
                for (String path : PATHS) {
                    HttpResponse<String> response = send(http, router, path, body.getBytes(StandardCharsets.UTF_8),
                            new String[] {"content-type", "application/json"});
                    assertThat(response.statusCode()).as(path).isEqualTo(400);
                    checkAnswer(ClientApi.forPath(path).openAiShaped(), false, response);
                }
            }
        }
    }

    private static String[] headers(Random random) {
        java.util.List<String> headers = new java.util.ArrayList<>();
        String type = CONTENT_TYPES[random.nextInt(CONTENT_TYPES.length)];
        if (!type.isEmpty()) {
            headers.add("content-type");
            headers.add(type);
        }
        if (random.nextInt(3) == 0) {
            headers.add("anthropic-routing-priority");
            headers.add(ClientBodies.oddHeader(random));
        }
        if (random.nextInt(4) == 0) {
            headers.add("anthropic-debug");
            headers.add(random.nextBoolean() ? "route" : ClientBodies.oddHeader(random));
        }
        if (random.nextInt(4) == 0) {
            headers.add("anthropic-trace");
            headers.add(random.nextBoolean() ? "true" : ClientBodies.oddHeader(random));
        }
        if (random.nextInt(4) == 0) {
            headers.add("x-session-id");
            headers.add(ClientBodies.oddHeader(random));
        }
        if (random.nextInt(6) == 0) {
            headers.add("traceparent");
            headers.add(random.nextBoolean() ? "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
                    : ClientBodies.oddHeader(random));
        }
        if (random.nextInt(6) == 0) {
            headers.add(random.nextBoolean() ? "x-api-key" : "authorization");
            headers.add(random.nextBoolean() ? "Bearer " + ClientBodies.oddHeader(random) : ClientBodies.oddHeader(random));
        }
        return headers.toArray(String[]::new);
    }

    private static HttpResponse<String> send(HttpClient http, RunningService router, String path, byte[] body,
            String[] headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router.baseUrl() + path)).timeout(PER_REQUEST)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int h = 0; h < headers.length; h += 2) {
            if (!headers[h + 1].isEmpty() || !headers[h].equals("content-type")) {
                request.header(headers[h], headers[h + 1]);
            }
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            // Tell a stalled pooled connection from a stalled server: the same request on a fresh client
            String retried;
            try {
                retried = "a fresh client got " + HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                        .send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
            } catch (Exception again) {
                retried = "a fresh client failed too: " + again;
            }
            StringBuilder threads = new StringBuilder();
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                if (thread.getName().startsWith("reactor-http") || thread.getName().startsWith("HttpClient")) {
                    threads.append("\n").append(thread.getName()).append(' ').append(thread.getState());
                    for (int f = 0; f < Math.min(6, stack.length); f++) {
                        threads.append("\n    ").append(stack[f]);
                    }
                }
            });
            System.out.println("stalled request; " + retried + "; threads:" + threads);
            throw new AssertionError("no answer within " + PER_REQUEST + " (" + retried + ") for "
                    + describe(path, body, headers), e);
        } catch (Exception e) {
            throw new AssertionError("request " + describe(path, body, headers) + " failed: " + e, e);
        }
    }

    private static String describe(String path, byte[] body, String[] headers) {
        String text = new String(body, StandardCharsets.UTF_8);
        return path + " headers " + java.util.Arrays.toString(headers) + " body ("
                + body.length + " bytes) " + (text.length() > 400 ? text.substring(0, 400) + "…" : text);
    }

    /**
     * Not a 5xx; a 200 is a complete answer; an error is the API's shape with a message and no stack trace, quoting no
     * prompt text (a Responses answer echoes the request's {@code instructions}, as the API does).
     */
    static void checkAnswer(boolean openAi, boolean echoesInstructions, HttpResponse<String> response) {
        int status = response.statusCode();
        String body = response.body();
        assertThat(status).as("status of %s", body.length() > 300 ? body.substring(0, 300) : body).isLessThan(500);
        assertThat(response.headers().firstValue("X-Anthropic-Trace-ID")).isPresent();
        assertThat(body).doesNotContain("Exception").doesNotContain("\tat ");
        if (status != 200 || !echoesInstructions) {
            assertThat(body).doesNotContain(ClientBodies.MARKER);
        }
        boolean eventStream = response.headers().firstValue("content-type").orElse("").startsWith("text/event-stream");
        if (status == 200 && eventStream) {
            assertThat(body).satisfiesAnyOf(b -> assertThat(b).endsWith("data: [DONE]\n\n"),
                    b -> assertThat(b).contains("event: message_stop"),
                    b -> assertThat(b).containsPattern("event: response\\.(completed|incomplete)\n"));
            return;
        }
        JsonNode json = EventCodec.mapper().readTree(body);
        if (status >= 400) {
            if (!openAi) {
                assertThat(json.path("type").stringValue()).as(body).isEqualTo("error");
            }
            assertThat(json.path("error").path("type").isString()).as(body).isTrue();
            assertThat(json.path("error").path("message").stringValue()).as(body).isNotBlank();
        } else {
            assertThat(json.isObject()).isTrue();
        }
    }
}
