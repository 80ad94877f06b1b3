package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Both APIs' bodies are read into one request; every malformed body is a 400 naming the field, never the prompt. */
class RequestParserTest {

    private final RequestParser parser = new RequestParser(4096);

    private ChatRequest parse(UpstreamProtocol protocol, String json) {
        return parser.parse(protocol, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsAnAnthropicRequestWithSystemBlocksAndToolResults() {
        ChatRequest request = parse(UpstreamProtocol.ANTHROPIC, """
                {"model":"claude-sonnet-4-5","max_tokens":256,"stream":true,
                 "system":[{"type":"text","text":"Be brief."}],
                 "messages":[
                   {"role":"user","content":"What is 2+2?"},
                   {"role":"assistant","content":[{"type":"text","text":"4"},{"type":"tool_use","id":"t1","name":"calc","input":{"q":"2+2"}}]},
                   {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"4"},{"type":"image","source":{}}]}],
                 "temperature":0.2,"metadata":{"user_id":"u"}}""");

        assertThat(request.model()).isEqualTo("claude-sonnet-4-5");
        assertThat(request.maxTokens()).isEqualTo(256);
        assertThat(request.stream()).isTrue();
        assertThat(request.messages()).isEqualTo(4);
        // a message's parts joined by newlines, as the router joins them for prefix hashing
        assertThat(request.texts()).containsExactly("Be brief.", "What is 2+2?", "4\ncalc{\"q\":\"2+2\"}", "4");
    }

    @Test
    void readsAnOpenAiRequestWithContentPartsAndStreamOptions() {
        ChatRequest request = parse(UpstreamProtocol.OPENAI, """
                {"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},
                 "messages":[{"role":"system","content":"Be brief."},
                   {"role":"user","content":[{"type":"text","text":"Hi"},{"type":"image_url","image_url":{"url":"x"}}]},
                   {"role":"assistant","content":null,"tool_calls":[]}]}""");

        assertThat(request.maxTokens()).isEqualTo(4096);
        assertThat(request.includeUsage()).isTrue();
        assertThat(request.texts()).containsExactly("Be brief.", "Hi", "");
        assertThat(parse(UpstreamProtocol.OPENAI, """
                {"model":"m","max_completion_tokens":7,"max_tokens":9,"messages":[{"role":"user","content":"x"}]}""")
                .maxTokens()).isEqualTo(7);
    }

    @Test
    void malformedBodiesAreInvalidRequestsNamingTheField() {
        assertInvalid(UpstreamProtocol.ANTHROPIC, "{not json", "not valid JSON", null);
        assertInvalid(UpstreamProtocol.ANTHROPIC, "[1,2]", "JSON object", null);
        assertInvalid(UpstreamProtocol.ANTHROPIC, "", "empty", null);
        assertInvalid(UpstreamProtocol.ANTHROPIC, "{\"max_tokens\":5,\"messages\":[]}", "model", "model");
        assertInvalid(UpstreamProtocol.ANTHROPIC,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "max_tokens", "max_tokens");
        assertInvalid(UpstreamProtocol.ANTHROPIC,
                "{\"model\":\"m\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "greater than or equal to 1", "max_tokens");
        assertInvalid(UpstreamProtocol.ANTHROPIC, "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[]}", "non-empty",
                "messages");
        assertInvalid(UpstreamProtocol.ANTHROPIC,
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"tool\",\"content\":\"secret prompt\"}]}",
                "messages.0.role", "messages.0.role");
        assertInvalid(UpstreamProtocol.ANTHROPIC,
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]}",
                "messages.0.content.0.text", "messages.0.content.0.text");
        assertInvalid(UpstreamProtocol.ANTHROPIC, "{\"model\":\"m\",\"max_tokens\":5,\"stream\":\"yes\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "stream", "stream");
        assertInvalid(UpstreamProtocol.OPENAI,
                "{\"model\":\"m\",\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "only allowed when 'stream' is enabled", "stream_options");
        assertInvalid(UpstreamProtocol.OPENAI, "{\"model\":\"m\",\"n\":129,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "less than or equal to 128", "n");
        assertInvalid(UpstreamProtocol.OPENAI, "{\"model\":\"m\",\"max_tokens\":1.5,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"x\"}]}", "integer", "max_tokens");
        assertInvalid(UpstreamProtocol.OPENAI, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":5}]}",
                "messages[0].content", "messages[0].content");
        assertInvalid(UpstreamProtocol.OPENAI, "{\"model\":\"m\",\"messages\":[]} trailing", "not valid JSON", null);
    }

    private void assertInvalid(UpstreamProtocol protocol, String body, String message, String param) {
        assertThatThrownBy(() -> parse(protocol, body))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.type()).isEqualTo("invalid_request_error");
                    assertThat(e.getMessage()).contains(message).doesNotContain("secret prompt");
                    assertThat(e.param()).isEqualTo(param);
                });
    }
}
