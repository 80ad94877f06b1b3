package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.support.TestNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two nodes of one model answer a prompt alike, and an answer whose start is prefilled (Anthropic's trailing assistant
 * message, vLLM's {@code continue_final_message}) goes on exactly where the prefill stops: prefill + continuation is
 * the uninterrupted answer, token for token, within the lowered limit; the APIs' own refusals hold.
 */
class PrefillContinuationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PROMPT = "Explain how a breaker trips, at length";
    private static TestNode anthropic;
    private static TestNode other;
    private static TestNode openAi;

    @BeforeAll
    static void start() {
        anthropic = TestNode.builder().id("a").seed(1).start();
        other = TestNode.builder().id("b").seed(99).start();
        openAi = TestNode.builder().id("o").seed(5).protocol(UpstreamProtocol.OPENAI).start();
    }

    @AfterAll
    static void stop() {
        anthropic.close();
        other.close();
        openAi.close();
    }

    private static JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String messages(int maxTokens, String prefill) {
        return "{\"model\":\"m\",\"max_tokens\":" + maxTokens + ",\"messages\":[{\"role\":\"user\",\"content\":"
                + JSON.writeValueAsString(PROMPT) + "}" + (prefill == null ? "" : ",{\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":" + JSON.writeValueAsString(prefill) + "}]}") + "]}";
    }

    private static String chat(int maxTokens, String prefill, boolean continueFinal) {
        String assistant = prefill == null ? "" : ",{\"role\":\"assistant\",\"content\":"
                + JSON.writeValueAsString(prefill) + "}";
        String flags = continueFinal ? ",\"continue_final_message\":true,\"add_generation_prompt\":false" : "";
        return "{\"model\":\"m\",\"max_tokens\":" + maxTokens + ",\"messages\":[{\"role\":\"user\",\"content\":"
                + JSON.writeValueAsString(PROMPT) + "}" + assistant + "]" + flags + "}";
    }

    @Test
    void anAnthropicAnswerGoesOnFromItsPrefilledStartOnAnotherNode() {
        // Given the uninterrupted answer of one node
        JsonNode whole = ok(anthropic.post("/v1/messages", messages(400, null)));
        String text = whole.path("content").path(0).path("text").stringValue();
        int tokens = whole.path("usage").path("output_tokens").intValue();
        assertThat(tokens).isGreaterThan(4);
        // and the same prompt on another node of the model: the same answer
        assertThat(ok(other.post("/v1/messages", messages(400, null))).path("content").path(0).path("text")
                .stringValue()).isEqualTo(text);
        // When the other node is asked to go on from the first words, with the limit lowered by the tokens sent
        String prefill = firstWords(text, 3);
        int sent = countPieces(prefill);
        JsonNode rest = ok(other.post("/v1/messages", messages(400 - sent, prefill)));

        // Then prefill + continuation is the uninterrupted answer, and the tokens add up
        assertThat(prefill + rest.path("content").path(0).path("text").stringValue()).isEqualTo(text);
        assertThat(sent + rest.path("usage").path("output_tokens").intValue()).isEqualTo(tokens);
        assertThat(rest.path("stop_reason").stringValue()).isEqualTo(whole.path("stop_reason").stringValue());
    }

    @Test
    void aPrefillEndingInsideAWordGoesOnWithTheRestOfIt() {
        String text = ok(anthropic.post("/v1/messages", messages(100_000, null))).path("content").path(0)
                .path("text").stringValue();
        String prefill = firstWords(text, 2);
        prefill = text.substring(0, prefill.length() + 3);

        JsonNode rest = ok(other.post("/v1/messages", messages(100_000, prefill)));

        assertThat(prefill + rest.path("content").path(0).path("text").stringValue()).isEqualTo(text);
    }

    @Test
    void aCappedAnswerStaysCappedAtTheSameToken() {
        JsonNode whole = ok(anthropic.post("/v1/messages", messages(12, null)));
        assertThat(whole.path("stop_reason").stringValue()).isEqualTo("max_tokens");
        String text = whole.path("content").path(0).path("text").stringValue();
        String prefill = firstWords(text, 4);

        JsonNode rest = ok(other.post("/v1/messages", messages(12 - countPieces(prefill), prefill)));

        assertThat(prefill + rest.path("content").path(0).path("text").stringValue()).isEqualTo(text);
        assertThat(rest.path("stop_reason").stringValue()).isEqualTo("max_tokens");
    }

    @Test
    void anAnswerThatEndsExactlyAtItsLimitStopsForItAfterAPrefillToo() {
        // the uninterrupted answer's length with a roomy limit, then that length as the limit: it stops for the limit
        JsonNode free = ok(anthropic.post("/v1/messages", messages(100_000, null)));
        int length = free.path("usage").path("output_tokens").intValue();
        JsonNode exact = ok(anthropic.post("/v1/messages", messages(length, null)));
        assertThat(exact.path("stop_reason").stringValue()).isEqualTo("max_tokens");
        String text = exact.path("content").path(0).path("text").stringValue();
        String prefill = firstWords(text, 3);

        JsonNode rest = ok(other.post("/v1/messages", messages(length - countPieces(prefill), prefill)));

        assertThat(prefill + rest.path("content").path(0).path("text").stringValue()).isEqualTo(text);
        assertThat(rest.path("stop_reason").stringValue()).isEqualTo("max_tokens");
    }

    @Test
    void aVllmNodeContinuesTheFinalMessageOnlyWhenAskedAsVllmAsksForIt() {
        JsonNode whole = ok(openAi.post("/v1/chat/completions", chat(300, null, false)));
        String text = whole.path("choices").path(0).path("message").path("content").stringValue();
        String prefill = firstWords(text, 5);

        JsonNode rest = ok(openAi.post("/v1/chat/completions", chat(300 - countPieces(prefill), prefill, true)));
        assertThat(prefill + rest.path("choices").path(0).path("message").path("content").stringValue())
                .isEqualTo(text);
        assertThat(countPieces(prefill) + rest.path("usage").path("completion_tokens").intValue())
                .isEqualTo(whole.path("usage").path("completion_tokens").intValue());

        // without continue_final_message the assistant turn is an earlier turn: a new answer, not its rest
        JsonNode fresh = ok(openAi.post("/v1/chat/completions", chat(300, prefill, false)));
        assertThat(prefill + fresh.path("choices").path(0).path("message").path("content").stringValue())
                .isNotEqualTo(text);
        // vLLM refuses continue_final_message together with add_generation_prompt, which is on unless turned off
        HttpResponse<String> both = openAi.post("/v1/chat/completions", chat(300, prefill, true)
                .replace("\"add_generation_prompt\":false", "\"add_generation_prompt\":true"));
        assertThat(both.statusCode()).isEqualTo(400);
        assertThat(both.body()).contains("add_generation_prompt");
    }

    @Test
    void aPrefillEndingInWhitespaceIsRefusedAsTheMessagesApiRefusesIt() {
        HttpResponse<String> response = anthropic.post("/v1/messages", messages(100, "The answer is "));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").path("message").stringValue())
                .contains("trailing whitespace");
    }

    /** The text up to the end of its {@code words}-th word (pieces are one word, or a period, each one token). */
    private static String firstWords(String text, int words) {
        int at = 0;
        for (int i = 0; i < words; i++) {
            at = text.indexOf(' ', at + 1);
        }
        return text.substring(0, at);
    }

    /** Tokens in a prefill cut at a word's end: words and periods, each one token. */
    private static int countPieces(String prefill) {
        int pieces = 0;
        for (String word : prefill.trim().split(" ")) {
            pieces += 1 + (word.endsWith(".") && word.length() > 1 ? 1 : 0);
        }
        return pieces;
    }
}
