package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.support.TestNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node answers both APIs with the real response shapes, exact token usage and deterministic text; bad input gets the
 * API's own error shape and status.
 */
class NodeApiTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PROMPT = "Write a short note about the weather in Lisbon for a travel newsletter.";
    private static TestNode node;

    @BeforeAll
    static void start() {
        node = TestNode.fast();
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static String anthropic(String prompt, int maxTokens, boolean stream) {
        return "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + ",\"system\":\"Be helpful.\",\"messages\":[{\"role\":\"user\",\"content\":" + JSON.writeValueAsString(prompt)
                + "}]}";
    }

    static String openAi(String prompt, int maxTokens, boolean stream, boolean usage) {
        return "{\"model\":\"gpt-4o-mini\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + (usage ? ",\"stream_options\":{\"include_usage\":true}" : "")
                + ",\"messages\":[{\"role\":\"system\",\"content\":\"Be helpful.\"},{\"role\":\"user\",\"content\":"
                + JSON.writeValueAsString(prompt) + "}]}";
    }

    static int expectedInputTokens(String prompt) {
        return PromptTokenizer.shared().tokens(List.of("Be helpful.", prompt), 2).inputTokens();
    }

    @Test
    void answersAnAnthropicMessageWithExactUsage() {
        HttpResponse<String> response = node.post("/v1/messages", anthropic(PROMPT, 4096, false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.headers().firstValue("request-id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_"));
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("id").stringValue()).matches("msg_[0-9A-Za-z]{24}");
        assertThat(body.get("type").stringValue()).isEqualTo("message");
        assertThat(body.get("role").stringValue()).isEqualTo("assistant");
        assertThat(body.get("model").stringValue()).isEqualTo("claude-haiku-4-5");
        assertThat(body.get("stop_reason").stringValue()).isEqualTo("end_turn");
        assertThat(body.get("stop_sequence").isNull()).isTrue();
        String text = body.get("content").get(0).get("text").stringValue();
        assertThat(body.get("content").get(0).get("type").stringValue()).isEqualTo("text");
        assertThat(body.get("usage").get("input_tokens").intValue()).isEqualTo(expectedInputTokens(PROMPT));
        assertThat(body.get("usage").get("output_tokens").intValue()).isEqualTo(PromptTokenizer.shared().count(text))
                .isPositive();
    }

    @Test
    void stopsAtMaxTokensWithTheApisStopReason() {
        JsonNode anthropic = JSON.readTree(node.post("/v1/messages", anthropic(PROMPT, 5, false)).body());
        assertThat(anthropic.get("stop_reason").stringValue()).isEqualTo("max_tokens");
        assertThat(anthropic.get("usage").get("output_tokens").intValue()).isEqualTo(5);

        JsonNode openAi = JSON.readTree(node.post("/v1/chat/completions", openAi(PROMPT, 3, false, false)).body());
        assertThat(openAi.get("choices").get(0).get("finish_reason").stringValue()).isEqualTo("length");
        assertThat(openAi.get("usage").get("completion_tokens").intValue()).isEqualTo(3);
    }

    @Test
    void answersAnOpenAiChatCompletionWithUsageAndCachedTokens() {
        String prompt = "Explain, step by step, how a bicycle gear system trades force for speed. ".repeat(8);
        HttpResponse<String> first = node.post("/v1/chat/completions", openAi(prompt, 4096, false, false));
        JsonNode body = JSON.readTree(first.body());

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("x-request-id")).isPresent();
        assertThat(body.get("id").stringValue()).startsWith("chatcmpl-");
        assertThat(body.get("object").stringValue()).isEqualTo("chat.completion");
        assertThat(body.get("created").asLong()).isPositive();
        JsonNode choice = body.get("choices").get(0);
        assertThat(choice.get("index").intValue()).isZero();
        assertThat(choice.get("message").get("role").stringValue()).isEqualTo("assistant");
        assertThat(choice.get("finish_reason").stringValue()).isEqualTo("stop");
        JsonNode usage = body.get("usage");
        int input = expectedInputTokens(prompt);
        assertThat(usage.get("prompt_tokens").intValue()).isEqualTo(input);
        assertThat(usage.get("completion_tokens").intValue())
                .isEqualTo(PromptTokenizer.shared().count(choice.get("message").get("content").stringValue()));
        assertThat(usage.get("total_tokens").intValue()).isEqualTo(input + usage.get("completion_tokens").intValue());
        assertThat(usage.get("prompt_tokens_details").get("cached_tokens").intValue()).isZero();

        // the same prompt again finds its full blocks in the prefix cache
        JsonNode again = JSON.readTree(node.post("/v1/chat/completions", openAi(prompt, 4096, false, false)).body());
        int cached = again.get("usage").get("prompt_tokens_details").get("cached_tokens").intValue();
        assertThat(cached).isPositive().isEqualTo(cached / 16 * 16).isLessThanOrEqualTo(input);
        assertThat(node.kvEvents).anySatisfy(event -> assertThat(event.type()).isEqualTo(KvEventType.BLOCK_STORED));
    }

    @Test
    void textIsDeterministicForTheModelAndRequestOnAnyNode() {
        String first = JSON.readTree(node.post("/v1/messages", anthropic(PROMPT, 4096, false)).body())
                .get("content").get(0).get("text").stringValue();
        JsonNode second = JSON.readTree(node.post("/v1/messages", anthropic(PROMPT, 4096, false)).body());
        String other = JSON.readTree(node.post("/v1/messages", anthropic(PROMPT + " Keep it upbeat.", 4096, false))
                .body()).get("content").get(0).get("text").stringValue();
        String otherSeed;
        try (TestNode seeded = TestNode.builder().seed(8).start()) {
            otherSeed = JSON.readTree(seeded.post("/v1/messages", anthropic(PROMPT, 4096, false)).body())
                    .get("content").get(0).get("text").stringValue();
        }
        String otherModel = JSON.readTree(node.post("/v1/messages", anthropic(PROMPT, 4096, false)
                .replaceFirst("\"model\":\"[^\"]*\"", "\"model\":\"another-model\"")).body())
                .get("content").get(0).get("text").stringValue();

        assertThat(second.get("content").get(0).get("text").stringValue()).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        // another node of the model answers alike (greedy decoding of the same weights); another model does not
        assertThat(otherSeed).isEqualTo(first);
        assertThat(otherModel).isNotEqualTo(first);
    }

    @Test
    void malformedRequestsGetEachApisErrorShape() {
        HttpResponse<String> anthropic = node.post("/v1/messages", "{\"model\":\"m\",\"messages\":\"oops\"}");
        assertThat(anthropic.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(anthropic.body());
        assertThat(error.get("type").stringValue()).isEqualTo("error");
        assertThat(error.get("error").get("type").stringValue()).isEqualTo("invalid_request_error");
        assertThat(error.get("error").get("message").stringValue()).contains("max_tokens");

        HttpResponse<String> openAi = node.post("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"robot\"}]}");
        assertThat(openAi.statusCode()).isEqualTo(400);
        JsonNode openAiError = JSON.readTree(openAi.body()).get("error");
        assertThat(openAiError.get("type").stringValue()).isEqualTo("invalid_request_error");
        assertThat(openAiError.get("param").stringValue()).isEqualTo("messages[0].role");
        assertThat(openAiError.has("code")).isTrue();
        assertThat(openAiError.get("message").stringValue()).contains("role");

        assertThat(node.post("/v1/messages", "not json at all").statusCode()).isEqualTo(400);
    }

    @Test
    void bodiesOverTenMegabytesAreRefusedWith413() {
        String huge = anthropic("x".repeat(10 * 1024 * 1024 + 1), 10, false);

        HttpResponse<String> anthropic = node.post("/v1/messages", huge);
        assertThat(anthropic.statusCode()).isEqualTo(413);
        JsonNode error = JSON.readTree(anthropic.body());
        assertThat(error.get("type").stringValue()).isEqualTo("error");
        assertThat(error.get("error").get("type").stringValue()).isEqualTo("request_too_large");

        HttpResponse<String> openAi = node.post("/v1/chat/completions", huge);
        assertThat(openAi.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(openAi.body()).get("error").get("code").stringValue()).isEqualTo("request_too_large");

        // the node keeps serving afterwards
        assertThat(node.post("/v1/messages", anthropic(PROMPT, 3, false)).statusCode()).isEqualTo(200);
    }

    @Test
    void unknownPathsAndMethodsAreRefusedAndTheServiceEndpointsAnswer() {
        HttpResponse<String> missing = node.get("/v2/nothing");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(missing.body()).get("error").get("type").stringValue()).isEqualTo("not_found_error");
        assertThat(node.get("/v1/messages").statusCode()).isEqualTo(405);
        assertThat(node.get("/health").statusCode()).isEqualTo(200);
        JsonNode models = JSON.readTree(node.get("/v1/models").body());
        assertThat(models.get("data").get(0).get("id").stringValue()).isEqualTo(node.node().spec().model());

        try (TestNode openAiNode = TestNode.builder().protocol(UpstreamProtocol.OPENAI).start()) {
            HttpResponse<String> response = TestNode.send(HttpRequest.newBuilder(
                    URI.create(openAiNode.url("/nope"))).timeout(Duration.ofSeconds(5)).GET().build());
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(response.body()).get("error").get("type").stringValue())
                    .isEqualTo("invalid_request_error");
        }
    }
}
