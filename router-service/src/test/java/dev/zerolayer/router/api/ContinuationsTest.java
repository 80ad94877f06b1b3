package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.answer.Transcript;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.routing.complexity.Conversation;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A continuation asks the node to go on from the text sent, in its protocol's form, with the limit lowered by the
 * tokens sent; extended thinking and several choices rule one out.
 */
class ContinuationsTest {

    private static final Transcript.Go GO = new Transcript.Go("Alpha beta", " ", 0, 1, 2, 20, null);

    private static JsonNode continued(String body, UpstreamProtocol protocol) {
        return EventCodec.mapper().readTree(Continuations.body(body.getBytes(StandardCharsets.UTF_8), protocol, GO));
    }

    @Test
    void anAnthropicNodeGetsATrailingAssistantTurnOrTheClientsOwnPrefillExtended() {
        JsonNode plain = continued("{\"model\":\"m\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"Hi\"}]}", UpstreamProtocol.ANTHROPIC);
        assertThat(plain.path("max_tokens").intValue()).isEqualTo(98);
        assertThat(plain.path("messages")).hasSize(2);
        assertThat(plain.path("messages").path(1).path("role").stringValue()).isEqualTo("assistant");
        assertThat(plain.path("messages").path(1).path("content").path(0).path("text").stringValue())
                .isEqualTo("Alpha beta");

        JsonNode prefilled = continued("{\"model\":\"m\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Hi\"},{\"role\":\"assistant\",\"content\":\"Sure:\"}]}", UpstreamProtocol.ANTHROPIC);
        assertThat(prefilled.path("messages")).hasSize(2);
        JsonNode content = prefilled.path("messages").path(1).path("content");
        assertThat(content.path(0).path("text").stringValue()).isEqualTo("Sure:");
        assertThat(content.path(1).path("text").stringValue()).isEqualTo("Alpha beta");
    }

    @Test
    void anOpenAiProtocolNodeGetsVllmsContinueFinalMessageForm() {
        JsonNode chat = continued("{\"model\":\"m\",\"max_completion_tokens\":50,\"stream\":true,\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"Hi\"}]}", UpstreamProtocol.OPENAI);

        assertThat(chat.path("max_completion_tokens").intValue()).isEqualTo(48);
        assertThat(chat.path("messages").path(1).path("content").stringValue()).isEqualTo("Alpha beta");
        assertThat(chat.path("continue_final_message").booleanValue()).isTrue();
        assertThat(chat.path("add_generation_prompt").booleanValue()).isFalse();
    }

    @Test
    void extendedThinkingSeveralChoicesAndLogProbabilitiesRuleAContinuationOut() {
        assertThat(Continuations.refusal(request(ClientApi.ANTHROPIC, "{\"thinking\":{\"type\":\"enabled\","
                + "\"budget_tokens\":2000}}"))).isEqualTo("thinking_requested");
        assertThat(Continuations.refusal(request(ClientApi.OPENAI, "{\"n\":3}"))).isEqualTo("several_choices");
        assertThat(Continuations.refusal(request(ClientApi.OPENAI, "{\"logprobs\":true,\"top_logprobs\":2}")))
                .isEqualTo("logprobs_requested");
        assertThat(Continuations.refusal(request(ClientApi.COMPLETIONS, "{\"logprobs\":3}")))
                .isEqualTo("logprobs_requested");
        assertThat(Continuations.refusal(request(ClientApi.OPENAI, "{\"logprobs\":false}"))).isNull();
        assertThat(Continuations.refusal(request(ClientApi.ANTHROPIC, "{\"thinking\":{\"type\":\"disabled\"}}")))
                .isNull();
    }

    private static ClientRequest request(ClientApi api, String body) {
        return new ClientRequest(api, (ObjectNode) EventCodec.mapper().readTree(body), "m", true,
                Conversation.ofUser("Hi"), null, null, 100);
    }
}
