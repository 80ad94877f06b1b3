package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Streams are framed at blank lines, pass through with the asked model and debug, translate, and end with an error when cut. */
class StreamShaperTest {

    private static final String ANTHROPIC_STREAM = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"node-model","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":11,"output_tokens":1}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hé"}}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":6}}

            event: message_stop
            data: {"type":"message_stop"}

            """;

    private static String run(StreamShaper shaper, String stream, int chunk, boolean cut) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        SseFramer framer = new SseFramer();
        List<byte[]> out = new ArrayList<>();
        for (int at = 0; at < bytes.length; at += chunk) {
            byte[] part = java.util.Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + chunk));
            framer.add(part).forEach(event -> out.addAll(shaper.onEvent(event)));
        }
        out.addAll(shaper.onEnd(cut));
        StringBuilder text = new StringBuilder();
        out.forEach(b -> text.append(new String(b, StandardCharsets.UTF_8)));
        return text.toString();
    }

    @Test
    void passesAnthropicEventsThroughRewritingOnlyTheModelAndAddingDebug() {
        ObjectNode debug = EventCodec.mapper().createObjectNode().put("tier", "haiku");
        StreamShaper shaper = new StreamShaper(ClientApi.ANTHROPIC, ClientApi.ANTHROPIC, "claude-haiku-4-5",
                () -> debug);
        String out = run(shaper, ANTHROPIC_STREAM, 7, false);
        assertThat(out).contains("\"model\":\"claude-haiku-4-5\"").doesNotContain("node-model")
                .contains("\"debug\":{\"tier\":\"haiku\"}")
                .contains("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                        + "\"text\":\"Hé\"}}")
                .endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        assertThat(shaper.inputTokens()).isEqualTo(11);
        assertThat(shaper.outputTokens()).isEqualTo(6);
        assertThat(shaper.failed()).isFalse();
    }

    @Test
    void anthropicContentEventsGoOnAsTheVeryBytesTheNodeSent() {
        byte[] delta = "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0}\r\n\r\n"
                .getBytes(StandardCharsets.UTF_8);
        StreamShaper shaper = new StreamShaper(ClientApi.ANTHROPIC, ClientApi.ANTHROPIC, "m", null);
        assertThat(shaper.onEvent(delta)).singleElement().isSameAs(delta);
        // for an OpenAI client the same event is translated, not passed on
        StreamShaper translating = new StreamShaper(ClientApi.OPENAI, ClientApi.ANTHROPIC, "m", null);
        assertThat(translating.onEvent(delta)).noneMatch(bytes -> bytes == delta);
    }

    @Test
    void onlyNamedContentEventsWithDataCountAsPassedAsIs() {
        assertThat(StreamShaper.passedAsIs(bytes("event: content_block_delta\ndata: {}\n\n"))).isTrue();
        assertThat(StreamShaper.passedAsIs(bytes("event:ping\ndata: {}\n\n"))).isTrue();
        assertThat(StreamShaper.passedAsIs(bytes("event: content_block_deltas\ndata: {}\n\n"))).isFalse();
        assertThat(StreamShaper.passedAsIs(bytes("event: message_delta\ndata: {}\n\n"))).isFalse();
        assertThat(StreamShaper.passedAsIs(bytes("event: message_start\ndata: {}\n\n"))).isFalse();
        assertThat(StreamShaper.passedAsIs(bytes("data: {}\n\n"))).isFalse();
        assertThat(StreamShaper.passedAsIs(bytes("event: ping\n\n"))).isFalse();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCutAnthropicStreamEndsWithAnOverloadedErrorEvent() {
        String cut = ANTHROPIC_STREAM.substring(0, ANTHROPIC_STREAM.indexOf("event: message_delta"));
        StreamShaper shaper = new StreamShaper(ClientApi.ANTHROPIC, ClientApi.ANTHROPIC, "m", null);
        String out = run(shaper, cut, 13, false);
        assertThat(out).endsWith("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"the upstream node failed mid-stream\"}}\n\n");
        assertThat(shaper.failed()).isTrue();
    }

    @Test
    void translatesAnAnthropicStreamForAnOpenAiClientEndingWithDone() {
        StreamShaper shaper = new StreamShaper(ClientApi.OPENAI, ClientApi.ANTHROPIC, "gpt-asked", null);
        String out = run(shaper, ANTHROPIC_STREAM, 64, false);
        assertThat(out).contains("\"object\":\"chat.completion.chunk\"").contains("\"model\":\"gpt-asked\"")
                .contains("\"delta\":{\"content\":\"Hé\"}").contains("\"finish_reason\":\"stop\"")
                .endsWith("data: [DONE]\n\n");
    }

    @Test
    void translatesAnOpenAiStreamForAnAnthropicClient() {
        String openAi = """
                data: {"id":"c1","object":"chat.completion.chunk","model":"n","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

                data: {"id":"c1","object":"chat.completion.chunk","model":"n","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}

                data: {"id":"c1","object":"chat.completion.chunk","model":"n","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}

                data: [DONE]

                """;
        StreamShaper shaper = new StreamShaper(ClientApi.ANTHROPIC, ClientApi.OPENAI, "claude-asked", null);
        String out = run(shaper, openAi, 5, false);
        assertThat(out).startsWith("event: message_start\n").contains("\"model\":\"claude-asked\"")
                .contains("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}")
                .contains("\"stop_reason\":\"max_tokens\"").endsWith("event: message_stop\ndata: "
                        + "{\"type\":\"message_stop\"}\n\n");
    }

    @Test
    void aCutOpenAiStreamEndsWithAnErrorChunkThenDone() {
        StreamShaper shaper = new StreamShaper(ClientApi.OPENAI, ClientApi.OPENAI, "m", null);
        String out = run(shaper, "data: {\"id\":\"c\",\"model\":\"n\",\"choices\":[]}\n\n", 4, false);
        assertThat(out).contains("\"model\":\"m\"")
                .endsWith("data: {\"error\":{\"message\":\"the upstream node failed mid-stream\",\"type\":"
                        + "\"overloaded_error\",\"param\":null,\"code\":null}}\n\ndata: [DONE]\n\n");
    }
}
