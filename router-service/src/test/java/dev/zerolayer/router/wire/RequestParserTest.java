package dev.zerolayer.router.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Client bodies are validated per API with a 400 naming the problem, never quoting the prompt. */
class RequestParserTest {

    private static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void parsesAValidAnthropicRequestWithSystemBlocksAndUserId() {
        ClientRequest request = RequestParser.anthropic(utf8("""
                {"model":"claude-haiku-4-5","max_tokens":64,"stream":true,"system":[{"type":"text","text":"be brief"}],
                 "metadata":{"user_id":"u1"},
                 "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":"yo"}]}
                """), true);
        assertThat(request.model()).isEqualTo("claude-haiku-4-5");
        assertThat(request.stream()).isTrue();
        assertThat(request.conversation().system()).isEqualTo("be brief");
        assertThat(request.conversation().turns()).hasSize(2);
        assertThat(request.userId()).isEqualTo("u1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{not json|not valid JSON",
            "[1,2]|must be a JSON object",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|max_tokens: Field required",
            "{\"model\":\"m\",\"max_tokens\":\"ten\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|max_tokens: Input should be a positive integer",
            "{\"model\":\"m\",\"max_tokens\":5}|messages: Field required",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[]}|at least one message",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":\"hi\"}|valid list",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}|messages.0.role",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":7}]}|messages.0.content",
            "{\"model\":7,\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|model: Input should be a non-empty string",
            "{\"model\":\"m\",\"max_tokens\":5,\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|stream: Input should be a valid boolean"})
    void rejectsBadAnthropicBodiesWithA400NamingTheField(String body, String expected) {
        assertThatThrownBy(() -> RequestParser.anthropic(utf8(body), true))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.type()).isEqualTo("invalid_request_error");
                    assertThat(e.getMessage()).contains(expected);
                });
    }

    @Test
    void countTokensDoesNotNeedMaxTokens() {
        ClientRequest request = RequestParser.anthropic(utf8(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"), false);
        assertThat(request.conversation().turns()).hasSize(1);
    }

    @Test
    void rejectsNonUtf8Bodies() {
        byte[] latin1 = "{\"model\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> RequestParser.anthropic(latin1, true))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage()).contains("UTF-8"));
    }

    @Test
    void parsesOpenAiAndFoldsSystemMessagesIntoTheSystemPrompt() {
        ClientRequest request = RequestParser.openAi(utf8("""
                {"model":"gpt-x","messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}],"user":"u9"}
                """));
        assertThat(request.api()).isEqualTo(ClientApi.OPENAI);
        assertThat(request.conversation().system()).isEqualTo("sys");
        assertThat(request.conversation().turns()).hasSize(1);
        assertThat(request.userId()).isEqualTo("u9");
    }

    @Test
    void rejectsAnUnknownOpenAiRoleAndABadMaxTokens() {
        assertThatThrownBy(() -> RequestParser.openAi(utf8(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage()).contains("unknown role"));
        assertThatThrownBy(() -> RequestParser.openAi(utf8(
                "{\"model\":\"m\",\"max_tokens\":-1,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage()).contains("max_tokens"));
    }

    @Test
    void errorShapesFollowEachApi() {
        assertThat(new String(ClientApi.ANTHROPIC.errorBody("invalid_request_error", "bad"), StandardCharsets.UTF_8))
                .isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}");
        assertThat(new String(ClientApi.OPENAI.errorBody("invalid_request_error", "bad"), StandardCharsets.UTF_8))
                .isEqualTo("{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"param\":null,"
                        + "\"code\":null}}");
    }

    @Test
    void claudeCodesRequestIsAcceptedAndEveryPartOfItIsCounted() throws Exception {
        byte[] raw;
        try (var in = RequestParserTest.class.getResourceAsStream("/clients/claude-code-request.json")) {
            raw = in.readAllBytes();
        }
        ClientRequest request = RequestParser.anthropic(raw, true);
        assertThat(request.stream()).isTrue();
        assertThat(request.maxOutputTokens()).isEqualTo(128_000);
        // the system message in the middle of the conversation is part of the instructions, not a user turn
        assertThat(request.conversation().turns()).hasSize(1);
        assertThat(request.conversation().system()).contains("# Environment");
        assertThat(request.prompt().extraTexts()).hasSize(3);
        assertThat(request.userId()).startsWith("{\"device_id\"");
        assertThat(request.prompt().texts().get(1)).endsWith("say hi");
    }

    @Test
    void readsResponsesAndLegacyCompletionsBodies() {
        ClientRequest responses = RequestParser.responses(utf8("""
                {"model":"m","instructions":"be brief","max_output_tokens":20,"input":[
                  {"role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"https://x/y.png"}]},
                  {"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},
                  {"type":"function_call_output","call_id":"c1","output":"ok"}]}"""));
        assertThat(responses.api()).isEqualTo(ClientApi.RESPONSES);
        assertThat(responses.maxOutputTokens()).isEqualTo(20);
        assertThat(responses.conversation().system()).isEqualTo("be brief");
        assertThat(responses.prompt().texts()).containsExactly("be brief", "hi", "f{}", "ok");
        assertThat(responses.prompt().countedTokens()).isEqualTo(1445);
        for (String[] bad : new String[][] {{"{\"model\":\"m\"}", "input: Field required"},
                {"{\"model\":\"m\",\"input\":\"x\",\"conversation\":\"conv_1\"}", "conversation"},
                {"{\"model\":\"m\",\"input\":[{\"type\":\"item_reference\",\"id\":\"x\"}]}", "item_reference"},
                {"{\"model\":\"m\",\"input\":[{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\"}]}",
                        "input[0].arguments"}}) {
            assertThatThrownBy(() -> RequestParser.responses(utf8(bad[0]))).as(bad[0])
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage()).contains(bad[1]));
        }
        ClientRequest completion = RequestParser.completions(utf8("{\"model\":\"m\",\"prompt\":[[1,2,3],\"x\"]}"));
        assertThat(completion.maxOutputTokens()).isEqualTo(16);
        assertThat(completion.prompt().countedTokens()).isEqualTo(3);
        assertThatThrownBy(() -> RequestParser.completions(utf8("{\"model\":\"m\"}")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage()).contains("prompt"));
    }
}
