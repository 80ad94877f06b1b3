package dev.zerolayer.router.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.wire.ClientApi;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node's stream becomes the client's answer: whole answers assembled exactly as the node would have sent them (text,
 * thinking with its signature, tool calls, usage merged as the SDKs merge it, several choices), and streams translated
 * between the APIs with tool calls, usage and the end intact; the Responses API's events in order.
 */
class AnswerShapingTest {

    /** An Anthropic stream with thinking, text and a tool call, its usage revised at the end. */
    static final String ANTHROPIC = String.join("",
            ev("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                    + "\"role\":\"assistant\",\"content\":[],\"model\":\"node\",\"stop_reason\":null,\"stop_sequence\":"
                    + "null,\"usage\":{\"input_tokens\":20,\"cache_read_input_tokens\":5,\"output_tokens\":1}}}"),
            ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":"
                    + "\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}"),
            ev("ping", "{\"type\": \"ping\"}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                    + "\"thinking_delta\",\"thinking\":\"Let me \"}}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                    + "\"thinking_delta\",\"thinking\":\"think.\"}}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                    + "\"signature_delta\",\"signature\":\"sig==\"}}"),
            ev("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
            ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":"
                    + "\"text\",\"text\":\"\"}}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
                    + "\"text_delta\",\"text\":\"Checking \\u00e9\"}}"),
            ev("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}"),
            ev("content_block_start", "{\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":"
                    + "\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":"
                    + "\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \"}}"),
            ev("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":"
                    + "\"input_json_delta\",\"partial_json\":\"\\\"Oslo\\\"}\"}}"),
            ev("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":2}"),
            ev("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\""
                    + ":null},\"usage\":{\"input_tokens\":22,\"output_tokens\":40}}"),
            ev("message_stop", "{\"type\":\"message_stop\"}"));

    /** An OpenAI stream: text, then a tool call in fragments, the finish chunk, the usage chunk, [DONE]. */
    static final String CHAT = String.join("",
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}"),
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"content\":\"On it.\"},\"finish_reason\":null}]}"),
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_9\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}"),
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
                    + "\"{\\\"city\\\":\\\"Oslo\\\"}\"}}]},\"finish_reason\":null}]}"),
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}"),
            data("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":9,\"total_tokens\":39,"
                    + "\"prompt_tokens_details\":{\"cached_tokens\":10}}}"),
            data("[DONE]"));

    private static String ev(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    private static String data(String data) {
        return "data: " + data + "\n\n";
    }

    private static Answers answers(ClientApi client, ObjectNode request, List<ObjectNode> items) {
        return new Answers(client, "asked", null, 7, false, request, items::add);
    }

    /** The stream fed in odd-sized pieces, as the network splits it. */
    private static void feed(String stream, java.util.function.Consumer<byte[]> into) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at < bytes.length; at += 37) {
            into.accept(java.util.Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + 37)));
        }
    }

    @Test
    void aWholeAnthropicAnswerIsTheMessageTheNodeWouldHaveSent() {
        WholeAnswer whole = answers(ClientApi.ANTHROPIC, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .whole(UpstreamProtocol.ANTHROPIC);
        feed(ANTHROPIC, whole::onChunk);
        ObjectNode message = whole.onEnd();

        assertThat(message.path("model").stringValue()).isEqualTo("asked");
        JsonNode content = message.path("content");
        assertThat(content.path(0).toString())
                .isEqualTo("{\"type\":\"thinking\",\"thinking\":\"Let me think.\",\"signature\":\"sig==\"}");
        assertThat(content.path(1).path("text").stringValue()).isEqualTo("Checking é");
        assertThat(content.path(2).path("input").toString()).isEqualTo("{\"city\":\"Oslo\"}");
        assertThat(message.path("stop_reason").stringValue()).isEqualTo("tool_use");
        // the delta's usage replaces the start's, field by field
        assertThat(message.path("usage").toString())
                .isEqualTo("{\"input_tokens\":22,\"cache_read_input_tokens\":5,\"output_tokens\":40}");
        assertThat(whole.outputTokens()).isEqualTo(40);
    }

    @Test
    void aWholeAnswerCutBeforeItsEndIsNone() {
        WholeAnswer whole = answers(ClientApi.ANTHROPIC, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .whole(UpstreamProtocol.ANTHROPIC);
        feed(ANTHROPIC.substring(0, ANTHROPIC.indexOf("event: message_delta")), whole::onChunk);
        assertThat(whole.onEnd()).isNull();
    }

    @Test
    void anOpenAiStreamBecomesAnAnthropicStreamWithTheToolCallAndTheNodesUsage() {
        StreamAnswer stream = answers(ClientApi.ANTHROPIC, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .stream(UpstreamProtocol.OPENAI);
        StringBuilder out = new StringBuilder();
        feed(CHAT, chunk -> out.append(new String(stream.onChunk(chunk), StandardCharsets.UTF_8)));
        out.append(new String(stream.onEnd(), StandardCharsets.UTF_8));

        String text = out.toString();
        assertThat(text).startsWith("event: message_start\n").contains("\"model\":\"asked\"")
                .contains("\"input_tokens\":7")
                .contains("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\"")
                .contains("\"text_delta\",\"text\":\"On it.\"")
                .contains("{\"type\":\"content_block_stop\",\"index\":0}")
                .contains("\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"call_9\",\"name\":\"get_weather\"")
                .contains("\"partial_json\":\"{\\\"city\\\":\\\"Oslo\\\"}\"")
                .contains("\"stop_reason\":\"tool_use\"")
                .contains("\"usage\":{\"input_tokens\":20,\"cache_read_input_tokens\":10,\"output_tokens\":9}")
                .endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        assertThat(stream.failed()).isFalse();
        assertThat(stream.inputTokens()).isEqualTo(20);
        assertThat(stream.outputTokens()).isEqualTo(9);
    }

    @Test
    void anAnthropicStreamBecomesAChatCompletionWholeAndStreamed() {
        WholeAnswer whole = answers(ClientApi.OPENAI, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .whole(UpstreamProtocol.ANTHROPIC);
        feed(ANTHROPIC, whole::onChunk);
        ObjectNode completion = whole.onEnd();
        JsonNode message = completion.path("choices").path(0).path("message");
        assertThat(completion.path("object").stringValue()).isEqualTo("chat.completion");
        assertThat(message.path("content").stringValue()).isEqualTo("Checking é");
        assertThat(message.path("reasoning_content").stringValue()).isEqualTo("Let me think.");
        assertThat(message.path("tool_calls").path(0).path("function").path("arguments").stringValue())
                .isEqualTo("{\"city\": \"Oslo\"}");
        assertThat(completion.path("choices").path(0).path("finish_reason").stringValue()).isEqualTo("tool_calls");
        // prompt tokens count the cached ones, as OpenAI counts them
        assertThat(completion.path("usage").path("prompt_tokens").intValue()).isEqualTo(27);
        assertThat(completion.path("usage").path("prompt_tokens_details").path("cached_tokens").intValue())
                .isEqualTo(5);

        StreamAnswer stream = new Answers(ClientApi.OPENAI, "asked", null, 7, true,
                EventCodec.mapper().createObjectNode(), item -> { }).stream(UpstreamProtocol.ANTHROPIC);
        StringBuilder out = new StringBuilder();
        feed(ANTHROPIC, chunk -> out.append(new String(stream.onChunk(chunk), StandardCharsets.UTF_8)));
        out.append(new String(stream.onEnd(), StandardCharsets.UTF_8));
        assertThat(out.toString()).contains("\"tool_calls\":[{\"index\":0,\"id\":\"toolu_1\",\"type\":\"function\"")
                .contains("\"finish_reason\":\"tool_calls\"").contains("\"choices\":[],\"usage\":{\"prompt_tokens\":27")
                .endsWith("data: [DONE]\n\n");
    }

    @Test
    void aWholeChatCompletionKeepsEveryChoiceAndLeavesOutTheUsageChunkTheClientDidNotAskFor() {
        String twoChoices = String.join("",
                data("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\","
                        + "\"system_fingerprint\":\"fp\",\"choices\":[{\"index\":1,\"delta\":{\"role\":\"assistant\","
                        + "\"content\":\"B\"},\"logprobs\":{\"content\":[{\"token\":\"B\",\"logprob\":-1}]},"
                        + "\"finish_reason\":null}]}"),
                data("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                        + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"A\"},\"finish_reason\":\"stop\"}]}"),
                data("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":"
                        + "[{\"index\":1,\"delta\":{},\"logprobs\":{\"content\":[{\"token\":\"!\",\"logprob\":-2}]},"
                        + "\"finish_reason\":\"length\"}]}"),
                data("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}"),
                data("[DONE]"));
        WholeAnswer whole = answers(ClientApi.OPENAI, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .whole(UpstreamProtocol.OPENAI);
        feed(twoChoices, whole::onChunk);
        ObjectNode completion = whole.onEnd();
        assertThat(completion.path("choices")).hasSize(2);
        assertThat(completion.path("choices").path(1).path("logprobs").path("content")).hasSize(2);
        assertThat(completion.path("choices").path(1).path("finish_reason").stringValue()).isEqualTo("length");
        assertThat(completion.path("system_fingerprint").stringValue()).isEqualTo("fp");
        assertThat(completion.path("usage").path("total_tokens").intValue()).isEqualTo(5);

        StreamAnswer stream = answers(ClientApi.OPENAI, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .stream(UpstreamProtocol.OPENAI);
        StringBuilder out = new StringBuilder();
        feed(twoChoices, chunk -> out.append(new String(stream.onChunk(chunk), StandardCharsets.UTF_8)));
        out.append(new String(stream.onEnd(), StandardCharsets.UTF_8));
        assertThat(out.toString()).doesNotContain("\"usage\"").contains("\"model\":\"asked\"")
                .endsWith("data: [DONE]\n\n");
        assertThat(stream.outputTokens()).isEqualTo(2);
    }

    @Test
    void aNodesErrorBeforeAnythingReachedTheClientFailsTheAttempt() {
        StreamAnswer stream = answers(ClientApi.ANTHROPIC, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .stream(UpstreamProtocol.ANTHROPIC);
        byte[] error = ev("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> stream.onChunk(error)).isInstanceOf(UpstreamFailure.class);
        StreamAnswer empty = answers(ClientApi.OPENAI, EventCodec.mapper().createObjectNode(), new ArrayList<>())
                .stream(UpstreamProtocol.ANTHROPIC);
        assertThatThrownBy(empty::onEnd).isInstanceOf(UpstreamFailure.class);
    }

    @Test
    void aResponsesAnswerNumbersItsEventsAndEndsWithTheWholeResponse() {
        ObjectNode request = (ObjectNode) EventCodec.mapper().readTree(
                "{\"model\":\"asked\",\"input\":\"x\",\"instructions\":\"Be brief.\",\"max_output_tokens\":50}");
        List<ObjectNode> items = new ArrayList<>();
        ResponsesWriter writer = new ResponsesWriter(request, "asked", items::add);
        List<ObjectNode> events = new ArrayList<>();
        for (String raw : ANTHROPIC.split("(?<=\n\n)")) {
            AnswerEvent event = AnthropicEvents.read(raw.getBytes(StandardCharsets.UTF_8));
            if (event != null) {
                events.addAll(writer.write(event));
            }
        }
        List<String> types = events.stream().map(e -> e.path("type").stringValue()).toList();
        assertThat(types.get(0)).isEqualTo("response.created");
        assertThat(types.get(types.size() - 1)).isEqualTo("response.completed");
        assertThat(types).containsSubsequence("response.output_item.added", "response.reasoning_summary_text.delta",
                "response.output_item.done", "response.output_item.added", "response.content_part.added",
                "response.output_text.delta", "response.output_text.done", "response.output_item.done",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.done", "response.output_item.done");
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).path("sequence_number").intValue()).isEqualTo(i);
        }
        // every item event names the item added at its output index
        for (ObjectNode event : events) {
            if (event.has("item_id")) {
                String added = events.stream().filter(e -> e.path("type").stringValue()
                        .equals("response.output_item.added") && e.path("output_index").intValue()
                        == event.path("output_index").intValue()).findFirst().orElseThrow()
                        .path("item").path("id").stringValue();
                assertThat(event.path("item_id").stringValue()).isEqualTo(added);
            }
        }
        ObjectNode response = writer.response();
        assertThat(response.path("status").stringValue()).isEqualTo("completed");
        assertThat(response.path("instructions").stringValue()).isEqualTo("Be brief.");
        assertThat(response.path("output")).hasSize(3);
        JsonNode call = response.path("output").path(2);
        assertThat(call.path("type").stringValue()).isEqualTo("function_call");
        assertThat(call.path("call_id").stringValue()).isEqualTo("toolu_1");
        assertThat(call.path("status").stringValue()).isEqualTo("completed");
        assertThat(response.path("output").path(1).path("content").path(0).path("annotations").isArray()).isTrue();
        assertThat(response.path("usage").path("input_tokens").intValue()).isEqualTo(27);
        assertThat(response.path("usage").path("total_tokens").intValue()).isEqualTo(67);
        assertThat(items).hasSize(3);

        ResponsesWriter capped = new ResponsesWriter(request, "asked", item -> { });
        String cut = ANTHROPIC.replace("\"stop_reason\":\"tool_use\"", "\"stop_reason\":\"max_tokens\"");
        for (String raw : cut.split("(?<=\n\n)")) {
            AnswerEvent event = AnthropicEvents.read(raw.getBytes(StandardCharsets.UTF_8));
            if (event != null) {
                capped.write(event);
            }
        }
        assertThat(capped.response().path("status").stringValue()).isEqualTo("incomplete");
        assertThat(capped.response().path("incomplete_details").path("reason").stringValue())
                .isEqualTo("max_output_tokens");
    }

    @Test
    void aTranslatedChatStreamCarriesTheDebugObjectOnItsFirstChunkAsAPassedOnOneDoes() {
        ObjectNode debug = EventCodec.mapper().createObjectNode().put("node", "n1");
        StreamAnswer stream = new Answers(ClientApi.OPENAI, "asked", () -> debug, 7, false,
                EventCodec.mapper().createObjectNode(), item -> {
                }).stream(UpstreamProtocol.ANTHROPIC);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        feed(ANTHROPIC, chunk -> out.writeBytes(stream.onChunk(chunk)));
        out.writeBytes(stream.onEnd());

        String[] chunks = out.toString(StandardCharsets.UTF_8).split("\n\n");
        assertThat(chunks[0]).contains("\"role\":\"assistant\"").contains("\"debug\":{\"node\":\"n1\"}");
        assertThat(java.util.Arrays.stream(chunks).skip(1)).noneMatch(chunk -> chunk.contains("\"debug\""));
    }
}
