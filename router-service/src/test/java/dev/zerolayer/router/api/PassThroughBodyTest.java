package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PassThroughBodyTest {

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(PassThroughBody.Rewritten rewritten) {
        return new String(rewritten.body(), StandardCharsets.UTF_8);
    }

    @Test
    void setsTheTopLevelModelInPlaceAndKeepsEverythingElseExactly() {
        String upstream = "{\"id\":\"msg_1\",\"model\":\"opus-node-model\",\"content\":[{\"type\":\"text\",\"text\":"
                + "\"hi \\u00e9\",\"model\":\"inner\"}],\"score\":1.50,\"big\":12345678901234567890,"
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":7,\"cache_read_input_tokens\":0}}";

        PassThroughBody.Rewritten rewritten = PassThroughBody.rewrite(bytes(upstream), ClientApi.ANTHROPIC,
                "claude-opus-4-1");

        assertThat(text(rewritten)).isEqualTo("{\"id\":\"msg_1\",\"model\":\"claude-opus-4-1\",\"content\":[{\"type\":"
                + "\"text\",\"text\":\"hi é\",\"model\":\"inner\"}],\"score\":1.50,\"big\":12345678901234567890,"
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":7,\"cache_read_input_tokens\":0}}");
        assertThat(rewritten.inputTokens()).isEqualTo(12);
        assertThat(rewritten.outputTokens()).isEqualTo(7);
    }

    @Test
    void addsTheModelWhenTheUpstreamSentNoneAndReplacesAStructuredOne() {
        assertThat(text(PassThroughBody.rewrite(bytes("{\"id\":\"x\"}"), ClientApi.ANTHROPIC, "m")))
                .isEqualTo("{\"id\":\"x\",\"model\":\"m\"}");
        assertThat(text(PassThroughBody.rewrite(bytes("{\"model\":{\"a\":[1,2]},\"id\":\"x\"}"), ClientApi.OPENAI,
                "m"))).isEqualTo("{\"model\":\"m\",\"id\":\"x\"}");
    }

    @Test
    void readsOpenAiUsageNamesAndTreatsOddCountsAsATreeWould() {
        PassThroughBody.Rewritten openAi = PassThroughBody.rewrite(bytes("{\"model\":\"n\",\"usage\":{"
                + "\"prompt_tokens\":\"30\",\"completion_tokens\":{\"x\":1},\"total_tokens\":31}}"), ClientApi.OPENAI,
                "gpt");
        assertThat(openAi.inputTokens()).isEqualTo(30);
        assertThat(openAi.outputTokens()).isZero();
        assertThat(text(openAi)).isEqualTo("{\"model\":\"gpt\",\"usage\":{\"prompt_tokens\":\"30\","
                + "\"completion_tokens\":{\"x\":1},\"total_tokens\":31}}");
        // the Anthropic names mean nothing in an OpenAI answer
        assertThat(PassThroughBody.rewrite(bytes("{\"usage\":{\"input_tokens\":5}}"), ClientApi.OPENAI, "g")
                .inputTokens()).isZero();
    }

    @Test
    void anythingButOneWellFormedJsonObjectIsABadGateway() {
        for (String bad : new String[] {"[1,2]", "\"text\"", "{\"a\":", "{\"a\":1} {\"b\":2}", "", "{\"a\" 1}"}) {
            assertThatThrownBy(() -> PassThroughBody.rewrite(bytes(bad), ClientApi.ANTHROPIC, "m"))
                    .as(bad).isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(502);
                        assertThat(e.type()).isEqualTo("api_error");
                    });
        }
    }
}
