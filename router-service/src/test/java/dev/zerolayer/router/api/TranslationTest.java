package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Plain-text conversations translate both ways; the same API only swaps the model. */
class TranslationTest {

    private static JsonNode tree(byte[] bytes) {
        return EventCodec.mapper().readTree(bytes);
    }

    @Test
    void sameApiKeepsTheBodyAndSwapsTheModel() {
        ClientRequest request = RequestParser.anthropic(("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":9,"
                + "\"temperature\":0.2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .getBytes(StandardCharsets.UTF_8), true);
        JsonNode body = tree(Translation.upstreamBody(request, ClientApi.ANTHROPIC, "node-model"));
        assertThat(body.get("model").stringValue()).isEqualTo("node-model");
        assertThat(body.get("temperature").doubleValue()).isEqualTo(0.2);
        assertThat(body.get("max_tokens").intValue()).isEqualTo(9);
    }

    @Test
    void anthropicRequestBecomesAnOpenAiRequestAndTheAnswerComesBack() {
        ClientRequest request = RequestParser.anthropic(("{\"model\":\"c\",\"max_tokens\":9,\"system\":\"sys\","
                + "\"stop_sequences\":[\"X\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .getBytes(StandardCharsets.UTF_8), true);
        JsonNode body = tree(Translation.upstreamBody(request, ClientApi.OPENAI, "gpt-node"));
        assertThat(body.toString()).isEqualTo("{\"model\":\"gpt-node\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"sys\"},{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":9,\"stop\":[\"X\"]}");
        JsonNode answer = Translation.openAiToAnthropicResponse(EventCodec.mapper().readTree("{\"id\":\"1\","
                + "\"choices\":[{\"message\":{\"content\":\"yo\"},\"finish_reason\":\"length\"}],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}"), "c");
        assertThat(answer.path("content").path(0).path("text").stringValue()).isEqualTo("yo");
        assertThat(answer.path("stop_reason").stringValue()).isEqualTo("max_tokens");
        assertThat(answer.path("usage").path("output_tokens").intValue()).isEqualTo(2);
        assertThat(answer.path("model").stringValue()).isEqualTo("c");
    }

    @Test
    void openAiRequestBecomesAnAnthropicRequestAndTheAnswerComesBack() {
        ClientRequest request = RequestParser.openAi(("{\"model\":\"g\",\"stream\":true,\"stop\":\"Z\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"sys\"},{\"role\":\"user\",\"content\":\"hi\"}]}")
                .getBytes(StandardCharsets.UTF_8));
        JsonNode body = tree(Translation.upstreamBody(request, ClientApi.ANTHROPIC, "claude-node"));
        assertThat(body.toString()).isEqualTo("{\"model\":\"claude-node\",\"max_tokens\":4096,\"system\":\"sys\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stop_sequences\":[\"Z\"],\"stream\":true}");
        JsonNode answer = Translation.anthropicToOpenAiResponse(EventCodec.mapper().readTree("{\"id\":\"m1\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"yo\"}],\"stop_reason\":\"end_turn\","
                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":2}}"), "g");
        assertThat(answer.path("choices").path(0).path("message").path("content").stringValue()).isEqualTo("yo");
        assertThat(answer.path("choices").path(0).path("finish_reason").stringValue()).isEqualTo("stop");
        assertThat(answer.path("usage").path("total_tokens").intValue()).isEqualTo(5);
    }
}
