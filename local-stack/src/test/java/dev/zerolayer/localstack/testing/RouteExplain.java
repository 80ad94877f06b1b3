package dev.zerolayer.localstack.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Asks a running router's {@code /v1/route/explain} which nodes a haiku-pinned request could go to, and why not. */
public final class RouteExplain {

    private RouteExplain() {
    }

    /** Every candidate node of an explained haiku-pinned decision: "eligible" or its exclusion reason. */
    public static Map<String, String> haikuCandidates(HttpClient http, String router, String apiKey) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/route/explain"))
                .header("content-type", "application/json").header("x-api-key", apiKey)
                .header("anthropic-routing-priority", "haiku")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"explain\"}]}", StandardCharsets.UTF_8))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, String> candidates = new HashMap<>();
        EventCodec.mapper().readTree(response.body()).path("candidates").forEach(c -> candidates.put(
                c.path("node").asString(""), c.path("eligible").asBoolean(false) ? "eligible"
                        : c.path("excluded_because").asString("")));
        return candidates;
    }
}
