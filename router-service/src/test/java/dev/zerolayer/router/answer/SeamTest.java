package dev.zerolayer.router.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stream broken mid-answer and continued on another node reads, to the client, as the uninterrupted answer: one
 * message start, the text whole at the seam (the whitespace a prefill must lose not doubled), one block, the usage of
 * the whole answer; what cannot go on says why, and a break after the stop reason only needs the end. A whole answer
 * broken mid-way goes on the same way into the same assembler.
 */
class SeamTest {

    private static final String START = ev("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
            + "\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"node\",\"stop_reason\":null,"
            + "\"usage\":{\"input_tokens\":20,\"output_tokens\":1}}}")
            + ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
            + "{\"type\":\"text\",\"text\":\"\"}}");

    /** An OpenAI node's chunks of "Alpha beta", cut before its finish reason. */
    private static final String CHAT_BROKEN = chatChunk("{\"role\":\"assistant\",\"content\":\"\"}")
            + chatChunk("{\"content\":\"Alpha\"}") + chatChunk("{\"content\":\" beta\"}");

    private static String chatChunk(String delta) {
        return "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"n\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":null}]}\n\n";
    }

    private static String ev(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    private static String text(String value) {
        return ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                + "\"text_delta\",\"text\":" + EventCodec.mapper().writeValueAsString(value) + "}}");
    }

    private static String end(int outputTokens) {
        return ev("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
                + ev("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + outputTokens + "}}")
                + ev("message_stop", "{\"type\":\"message_stop\"}");
    }

    private static Answers answers(ClientApi client) {
        return new Answers(client, "asked", null, 7, true, EventCodec.mapper().createObjectNode(), item -> {
        }, true);
    }

    /** The client's bytes of a broken attempt, then of the continuation spliced in. */
    private static String splice(Answers answers, UpstreamProtocol first, String broken, UpstreamProtocol second,
            String continuation) {
        ByteArrayOutputStream client = new ByteArrayOutputStream();
        StreamAnswer answer = answers.stream(first);
        client.writeBytes(answer.onChunk(broken.getBytes(StandardCharsets.UTF_8)));
        client.writeBytes(answer.onEnd());
        assertThat(answer.brokeOff()).as("the cut is a break").isNotNull();
        Transcript.Go go = (Transcript.Go) answer.transcript().resume();
        StreamAnswer seam = answers.continuation(second, answer.transcript(), go);
        client.writeBytes(seam.onChunk(continuation.getBytes(StandardCharsets.UTF_8)));
        client.writeBytes(seam.onEnd());
        assertThat(seam.brokeOff()).isNull();
        assertThat(seam.failed()).isFalse();
        return client.toString(StandardCharsets.UTF_8);
    }

    /** The message an Anthropic client assembles from the stream. */
    private static ObjectNode message(String stream) {
        MessageAssembler assembler = new MessageAssembler();
        SseFramer framer = new SseFramer();
        for (byte[] raw : framer.add(stream.getBytes(StandardCharsets.UTF_8))) {
            AnswerEvent event = AnthropicEvents.read(raw);
            if (event != null) {
                assembler.accept(event);
            }
        }
        return assembler.message("asked");
    }

    @Test
    void aCutAnthropicStreamContinuedOnAnotherNodeReadsAsTheWholeAnswer() {
        String stream = splice(answers(ClientApi.ANTHROPIC), UpstreamProtocol.ANTHROPIC,
                START + text("Alpha") + text(" beta"),
                UpstreamProtocol.ANTHROPIC, START + text(" gamma") + text(" delta") + text(".") + end(3));

        assertThat(stream.split("event: message_start", -1)).hasSize(2);
        assertThat(stream.split("event: message_stop", -1)).hasSize(2);
        assertThat(stream).doesNotContain("event: error");
        ObjectNode message = message(stream);
        assertThat(message.path("content")).hasSize(1);
        assertThat(message.path("content").path(0).path("text").stringValue()).isEqualTo("Alpha beta gamma delta.");
        assertThat(message.path("stop_reason").stringValue()).isEqualTo("end_turn");
        // the usage of the whole answer: input as first counted, the two tokens sent plus the three continued
        assertThat(message.path("usage").path("output_tokens").intValue()).isEqualTo(5);
        assertThat(message.path("usage").path("input_tokens").intValue()).isEqualTo(20);
    }

    @Test
    void theWhitespaceAPrefillLosesIsNotSentTwice() {
        Answers answers = answers(ClientApi.ANTHROPIC);
        StreamAnswer answer = answers.stream(UpstreamProtocol.ANTHROPIC);
        answer.onChunk((START + text("Alpha") + text(" beta") + text("\n")).getBytes(StandardCharsets.UTF_8));
        answer.onEnd();
        Transcript.Go go = (Transcript.Go) answer.transcript().resume();
        assertThat(go.prefill()).isEqualTo("Alpha beta");
        assertThat(go.tail()).isEqualTo("\n");
        assertThat(go.sentTokens()).isEqualTo(3);

        StreamAnswer seam = answers.continuation(UpstreamProtocol.ANTHROPIC, answer.transcript(), go);
        String rest = new String(seam.onChunk((START + text("\nGamma") + text(".") + end(2))
                .getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);

        assertThat(message(START + text("Alpha") + text(" beta") + text("\n") + rest).path("content").path(0)
                .path("text").stringValue()).isEqualTo("Alpha beta\nGamma.");
    }

    @Test
    void aChatStreamContinuedOnAnAnthropicNodeGoesOnInTheSameChunks() {
        String stream = splice(answers(ClientApi.OPENAI), UpstreamProtocol.OPENAI, CHAT_BROKEN,
                UpstreamProtocol.ANTHROPIC, START + text(" gamma") + text(".") + end(2));

        StringBuilder content = new StringBuilder();
        List<String> ids = new ArrayList<>();
        int roles = 0;
        int finishes = 0;
        ObjectNode usage = null;
        for (String line : stream.split("\n")) {
            if (!line.startsWith("data: {")) {
                continue;
            }
            ObjectNode data = (ObjectNode) EventCodec.mapper().readTree(line.substring(6));
            ids.add(data.path("id").stringValue());
            if (data.hasNonNull("usage")) {
                usage = (ObjectNode) data.get("usage");
            }
            data.path("choices").forEach(choice -> content.append(choice.path("delta").path("content")
                    .asString("")));
            roles += data.path("choices").path(0).path("delta").has("role") ? 1 : 0;
            finishes += data.path("choices").path(0).path("finish_reason").isString() ? 1 : 0;
        }
        assertThat(content.toString()).isEqualTo("Alpha beta gamma.");
        assertThat(ids).containsOnly("chatcmpl-9");
        assertThat(roles).isEqualTo(1);
        assertThat(finishes).isEqualTo(1);
        assertThat(usage).isNotNull();
        assertThat(usage.path("completion_tokens").intValue()).isEqualTo(4);
        assertThat(stream).endsWith("data: [DONE]\n\n");
        assertThat(stream.split("\\[DONE]", -1)).hasSize(2);
    }

    @Test
    void whatCannotGoOnSaysWhyAndABreakAfterTheStopReasonOnlyNeedsTheEnd() {
        String toolStart = ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,"
                + "\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}}");
        assertThat(resume(START + text("Let me look.") + toolStart)).isEqualTo(new Transcript.Cannot(
                "tool_call_half_sent"));
        String thinking = ev("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}")
                + ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                + "{\"type\":\"thinking\",\"thinking\":\"\"}}");
        assertThat(resume(thinking)).isEqualTo(new Transcript.Cannot("thinking_sent"));

        String whole = START + text("Done.") + end(2);
        String stopped = whole.substring(0, whole.indexOf("event: message_stop"));
        Answers answers = answers(ClientApi.ANTHROPIC);
        StreamAnswer answer = answers.stream(UpstreamProtocol.ANTHROPIC);
        answer.onChunk(stopped.getBytes(StandardCharsets.UTF_8));
        answer.onEnd();
        assertThat(answer.transcript().resume()).isInstanceOf(Transcript.Close.class);
        assertThat(new String(answer.close(), StandardCharsets.UTF_8)).startsWith("event: message_stop\n");
        assertThat(answer.failed()).isFalse();
    }

    /** A whole answer from a broken attempt, then the continuation assembled into it. */
    private static ObjectNode wholeSpliced(Answers answers, UpstreamProtocol first, String broken,
            UpstreamProtocol second, String continuation) {
        WholeAnswer answer = answers.whole(first);
        answer.onChunk(broken.getBytes(StandardCharsets.UTF_8));
        assertThat(answer.onEnd()).as("a cut answer is no answer").isNull();
        Transcript.Go go = (Transcript.Go) answer.transcript().resume();
        WholeAnswer rest = answers.continuation(second, answer, go);
        rest.onChunk(continuation.getBytes(StandardCharsets.UTF_8));
        ObjectNode whole = rest.onEnd();
        assertThat(whole).as("the continued answer is whole").isNotNull();
        assertThat(rest.outputTokens()).isEqualTo(whole.has("usage") && whole.path("usage").has("output_tokens")
                ? whole.path("usage").path("output_tokens").intValue()
                : whole.path("usage").path("completion_tokens").intValue());
        return whole;
    }

    @Test
    void aWholeAnthropicAnswerBrokenMidWayIsContinuedIntoOneMessage() {
        ObjectNode message = wholeSpliced(answers(ClientApi.ANTHROPIC), UpstreamProtocol.ANTHROPIC,
                START + text("Alpha") + text(" beta") + text(" "),
                UpstreamProtocol.ANTHROPIC, START + text(" gamma") + text(".") + end(2));

        assertThat(message.path("content")).hasSize(1);
        assertThat(message.path("content").path(0).path("text").stringValue()).isEqualTo("Alpha beta gamma.");
        assertThat(message.path("stop_reason").stringValue()).isEqualTo("end_turn");
        assertThat(message.path("id").stringValue()).isEqualTo("msg_1");
        assertThat(message.path("usage").path("output_tokens").intValue()).isEqualTo(5);
        assertThat(message.path("usage").path("input_tokens").intValue()).isEqualTo(20);
    }

    @Test
    void aWholeChatAnswerFromAnOpenAiNodeBrokenMidWayIsContinuedIntoOneCompletion() {
        ObjectNode completion = wholeSpliced(answers(ClientApi.OPENAI), UpstreamProtocol.OPENAI, CHAT_BROKEN,
                UpstreamProtocol.ANTHROPIC, START + text(" gamma") + text(".") + end(2));

        assertThat(completion.path("id").stringValue()).isEqualTo("chatcmpl-9");
        assertThat(completion.path("object").stringValue()).isEqualTo("chat.completion");
        assertThat(completion.path("choices")).hasSize(1);
        assertThat(completion.path("choices").path(0).path("message").path("content").stringValue())
                .isEqualTo("Alpha beta gamma.");
        assertThat(completion.path("choices").path(0).path("finish_reason").stringValue()).isEqualTo("stop");
        assertThat(completion.path("usage").path("completion_tokens").intValue()).isEqualTo(4);
    }

    @Test
    void aWholeAnswerKeptNothingWhenContinuationIsOff() {
        Answers off = new Answers(ClientApi.ANTHROPIC, "asked", null, 7, true,
                EventCodec.mapper().createObjectNode(), item -> {
                }, false);
        assertThat(off.whole(UpstreamProtocol.ANTHROPIC).transcript()).isNull();
        assertThat(off.whole(UpstreamProtocol.OPENAI).transcript()).isNull();
    }

    private static Transcript.Resume resume(String broken) {
        StreamAnswer answer = answers(ClientApi.ANTHROPIC).stream(UpstreamProtocol.ANTHROPIC);
        answer.onChunk(broken.getBytes(StandardCharsets.UTF_8));
        answer.onEnd();
        return answer.transcript().resume();
    }
}
