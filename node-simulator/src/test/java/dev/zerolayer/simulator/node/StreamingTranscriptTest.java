package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.support.Sse;
import dev.zerolayer.simulator.support.TestNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams follow the official SDK transcripts (fixtures copied from the SDKs' test suites): the same event order, the
 * same JSON shape per event type, and the streamed text and usage equal the non-streaming answer.
 */
class StreamingTranscriptTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PROMPT = "Give me three tips for writing clear commit messages.";
    private static TestNode node;

    @BeforeAll
    static void start() {
        node = TestNode.fast();
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void anthropicStreamMatchesTheSdkTranscript() throws IOException {
        List<Sse.Frame> fixture = Sse.parse(fixture("anthropic_basic_response.sse"));
        List<Sse.Frame> streamed = stream("/v1/messages", NodeApiTest.anthropic(PROMPT, 4096, true));

        // event order: message_start, content_block_start, ping, deltas..., content_block_stop, message_delta, message_stop
        assertThat(order(streamed)).isEqualTo(order(fixture));
        assertThat(order(fixture)).containsExactly("message_start", "content_block_start", "ping",
                "content_block_delta+", "content_block_stop", "message_delta", "message_stop");
        // each event's data names the same event and has exactly the fixture's JSON shape
        assertThat(shapes(streamed)).isEqualTo(shapes(fixture));
        for (Sse.Frame frame : streamed) {
            assertThat(JSON.readTree(frame.data()).get("type").stringValue()).isEqualTo(frame.event());
        }
        assertThat(streamed.get(2).data()).isEqualTo(fixture.get(2).data());

        // the streamed text and usage are the non-streaming answer's
        JsonNode whole = JSON.readTree(node.post("/v1/messages", NodeApiTest.anthropic(PROMPT, 4096, false)).body());
        StringBuilder text = new StringBuilder();
        streamed.stream().filter(f -> "content_block_delta".equals(f.event()))
                .forEach(f -> text.append(JSON.readTree(f.data()).get("delta").get("text").stringValue()));
        assertThat(text.toString()).isEqualTo(whole.get("content").get(0).get("text").stringValue());
        JsonNode start = JSON.readTree(streamed.get(0).data()).get("message");
        assertThat(start.get("usage").get("input_tokens").intValue())
                .isEqualTo(whole.get("usage").get("input_tokens").intValue());
        JsonNode delta = JSON.readTree(streamed.get(streamed.size() - 2).data());
        assertThat(delta.get("usage").get("output_tokens").intValue())
                .isEqualTo(whole.get("usage").get("output_tokens").intValue());
        assertThat(delta.get("delta").get("stop_reason").stringValue()).isEqualTo("end_turn");
        assertThat(streamed.stream().filter(f -> "content_block_delta".equals(f.event())).count())
                .isEqualTo(whole.get("usage").get("output_tokens").intValue());
    }

    @Test
    void openAiStreamMatchesTheSdkTranscriptsWithAndWithoutUsage() throws IOException {
        List<Sse.Frame> fixture = Sse.parse(fixture("openai_plain_text.sse"));
        List<Sse.Frame> withUsage = stream("/v1/chat/completions", NodeApiTest.openAi(PROMPT, 4096, true, true));

        assertThat(kinds(withUsage)).isEqualTo(kinds(fixture));
        assertThat(kinds(fixture)).containsExactly("role", "content+", "finish:stop", "usage", "[DONE]");
        // every chunk has at least the fixture's fields (usage also reports cached prompt tokens)
        Map<String, Set<String>> expected = shapes(fixture);
        Map<String, Set<String>> actual = shapes(withUsage);
        expected.forEach((kind, paths) -> assertThat(actual.get(kind)).as(kind).containsAll(paths));
        assertThat(actual.get("usage")).contains("usage.prompt_tokens_details.cached_tokens");

        JsonNode whole = JSON.readTree(node.post("/v1/chat/completions", NodeApiTest.openAi(PROMPT, 4096, false, false))
                .body());
        JsonNode usage = JSON.readTree(withUsage.get(withUsage.size() - 2).data()).get("usage");
        assertThat(usage.get("completion_tokens").intValue())
                .isEqualTo(whole.get("usage").get("completion_tokens").intValue());
        assertThat(usage.get("prompt_tokens").intValue()).isEqualTo(whole.get("usage").get("prompt_tokens").intValue());
        StringBuilder text = new StringBuilder();
        withUsage.stream().filter(f -> kind(f).equals("content"))
                .forEach(f -> text.append(JSON.readTree(f.data()).get("choices").get(0).get("delta").get("content")
                        .stringValue()));
        assertThat(text.toString()).isEqualTo(whole.get("choices").get(0).get("message").get("content").stringValue());

        // without include_usage there is no usage chunk; a capped stream finishes with "length"
        List<Sse.Frame> capped = stream("/v1/chat/completions", NodeApiTest.openAi(PROMPT, 1, true, false));
        List<Sse.Frame> cappedFixture = Sse.parse(fixture("openai_max_tokens_length.sse"));
        assertThat(kinds(capped)).containsExactly("role", "content", "finish:length", "[DONE]");
        assertThat(kinds(cappedFixture)).containsExactly("role", "content", "finish:length", "usage", "[DONE]");
    }

    @Test
    void anOpenAiNodeStreamsAnthropicToo() throws IOException {
        try (TestNode openAiNode = TestNode.builder().protocol(UpstreamProtocol.OPENAI).start()) {
            HttpResponse<InputStream> response = openAiNode.postStreaming("/v1/messages",
                    NodeApiTest.anthropic(PROMPT, 4, true));
            assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));
            List<Sse.Frame> frames = Sse.read(response.body());
            assertThat(order(frames)).endsWith("message_delta", "message_stop");
        }
    }

    private static List<Sse.Frame> stream(String path, String body) throws IOException {
        HttpResponse<InputStream> response = node.postStreaming(path, body);
        assertThat(response.statusCode()).isEqualTo(200);
        return Sse.read(response.body());
    }

    /** Event names in order, runs of deltas collapsed to {@code name+}. */
    private static List<String> order(List<Sse.Frame> frames) {
        List<String> order = new ArrayList<>();
        for (Sse.Frame frame : frames) {
            collapse(order, frame.event());
        }
        return order;
    }

    /** OpenAI chunk kinds in order: role, content, finish:reason, usage, [DONE]; runs of content collapsed. */
    private static List<String> kinds(List<Sse.Frame> frames) {
        List<String> kinds = new ArrayList<>();
        for (Sse.Frame frame : frames) {
            collapse(kinds, kind(frame));
        }
        return kinds;
    }

    private static void collapse(List<String> list, String name) {
        String last = list.isEmpty() ? null : list.get(list.size() - 1);
        if (name.equals(last) || (name + "+").equals(last)) {
            list.set(list.size() - 1, name + "+");
        } else {
            list.add(name);
        }
    }

    private static String kind(Sse.Frame frame) {
        if (frame.data().equals("[DONE]")) {
            return "[DONE]";
        }
        JsonNode chunk = JSON.readTree(frame.data());
        assertThat(chunk.get("object").stringValue()).isEqualTo("chat.completion.chunk");
        if (chunk.get("choices").isEmpty()) {
            return "usage";
        }
        JsonNode choice = chunk.get("choices").get(0);
        if (!choice.get("finish_reason").isNull()) {
            return "finish:" + choice.get("finish_reason").stringValue();
        }
        return choice.get("delta").has("role") ? "role" : "content";
    }

    /** Per event name (or OpenAI chunk kind), the set of JSON paths its data has. */
    private static Map<String, Set<String>> shapes(List<Sse.Frame> frames) {
        Map<String, Set<String>> shapes = new TreeMap<>();
        for (Sse.Frame frame : frames) {
            if (frame.data().equals("[DONE]")) {
                continue;
            }
            String name = frame.event() != null ? frame.event() : kind(frame).replaceFirst(":.*", "");
            paths(JSON.readTree(frame.data()), "", shapes.computeIfAbsent(name, k -> new TreeSet<>()));
        }
        return shapes;
    }

    private static void paths(JsonNode node, String prefix, Set<String> out) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
                out.add(path);
                paths(field.getValue(), path, out);
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                paths(element, prefix + "[]", out);
            }
        }
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = StreamingTranscriptTest.class.getResourceAsStream("/fixtures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
