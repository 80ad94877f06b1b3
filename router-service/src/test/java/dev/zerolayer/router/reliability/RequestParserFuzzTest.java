package dev.zerolayer.router.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.testing.SeededFuzz;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.RequestParser;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Fuzzing of the client body parser of both APIs (and count_tokens): every damaged or random body ends in a parsed
 * request or an {@link ApiException} with a 4xx status that renders in the API's own error shape and quotes no prompt
 * text — never another exception — in bounded time; valid bodies always parse. 10,000 cases per surface
 * ({@code -Dzerolayer.fuzz.cases=N} for longer runs).
 */
class RequestParserFuzzTest {

    private static final int CASES = 10_000;
    private static final Duration PER_INPUT = Duration.ofSeconds(2);

    @Test
    void anthropicMessagesBodies() {
        SeededFuzz.run("anthropic /v1/messages body", CASES, (random, i) -> {
            byte[] body = ClientBodies.damage(random, ClientBodies.anthropic(random));
            parseOrRefuse(ClientApi.ANTHROPIC, body, raw -> RequestParser.anthropic(raw, true));
        });
    }

    @Test
    void anthropicCountTokensBodies() {
        SeededFuzz.run("anthropic count_tokens body", CASES, (random, i) -> {
            byte[] body = ClientBodies.damage(random, ClientBodies.anthropic(random));
            parseOrRefuse(ClientApi.ANTHROPIC, body, raw -> RequestParser.anthropic(raw, false));
        });
    }

    @Test
    void openAiChatCompletionBodies() {
        SeededFuzz.run("openai /v1/chat/completions body", CASES, (random, i) -> {
            byte[] body = ClientBodies.damage(random, ClientBodies.openAi(random));
            parseOrRefuse(ClientApi.OPENAI, body, RequestParser::openAi);
        });
    }

    @Test
    void openAiResponsesBodies() {
        SeededFuzz.run("openai /v1/responses body", CASES, (random, i) -> {
            byte[] body = ClientBodies.damage(random, ClientBodies.responses(random));
            parseOrRefuse(ClientApi.RESPONSES, body, RequestParser::responses);
        });
    }

    @Test
    void openAiLegacyCompletionBodies() {
        SeededFuzz.run("openai /v1/completions body", CASES, (random, i) -> {
            byte[] body = ClientBodies.damage(random, ClientBodies.completions(random));
            parseOrRefuse(ClientApi.COMPLETIONS, body, RequestParser::completions);
        });
    }

    @Test
    void undamagedBodiesOfBothApisAlwaysParse() {
        SeededFuzz.run("valid bodies", 2_000, (random, i) -> {
            ClientRequest anthropic = RequestParser.anthropic(EventCodec.mapper().writeValueAsBytes(
                    ClientBodies.anthropic(random)), true);
            assertThat(anthropic.conversation().turns()).isNotEmpty();
            ClientRequest openAi = RequestParser.openAi(EventCodec.mapper().writeValueAsBytes(
                    ClientBodies.openAi(random)));
            assertThat(openAi.model()).isNotBlank();
            assertThat(RequestParser.responses(EventCodec.mapper().writeValueAsBytes(ClientBodies.responses(random)))
                    .conversation().turns()).isNotEmpty();
            assertThat(RequestParser.completions(EventCodec.mapper().writeValueAsBytes(
                    ClientBodies.completions(random))).maxOutputTokens()).isPositive();
        });
    }

    @Test
    void bodiesBeyondTheJsonLimitsAreRefused() {
        for (String body : ClientBodies.beyondJsonLimits()) {
            byte[] raw = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            parseOrRefuse(ClientApi.ANTHROPIC, raw, bytes -> RequestParser.anthropic(bytes, true));
            parseOrRefuse(ClientApi.OPENAI, raw, RequestParser::openAi);
            parseOrRefuse(ClientApi.RESPONSES, raw, RequestParser::responses);
            parseOrRefuse(ClientApi.COMPLETIONS, raw, RequestParser::completions);
        }
    }

    private static void parseOrRefuse(ClientApi api, byte[] body, Function<byte[], ClientRequest> parser) {
        long start = System.nanoTime();
        try {
            ClientRequest request = parser.apply(body);
            assertThat(request.api()).isEqualTo(api);
            assertThat(request.model()).isNotBlank();
            assertThat(request.conversation()).isNotNull();
        } catch (ApiException refused) {
            assertThat(refused.status()).as(refused.getMessage()).isBetween(400, 499);
            assertThat(refused.type()).isEqualTo("invalid_request_error");
            assertThat(refused.getMessage()).isNotBlank().doesNotContain(ClientBodies.MARKER);
            JsonNode shape = EventCodec.mapper().readTree(api.errorBody(refused.type(), refused.getMessage()));
            if (api == ClientApi.ANTHROPIC) {
                assertThat(shape.path("type").stringValue()).isEqualTo("error");
            } else {
                assertThat(shape.has("type")).isFalse();
            }
            assertThat(shape.path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
            assertThat(shape.path("error").path("message").stringValue()).isEqualTo(refused.getMessage());
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PER_INPUT);
    }
}
