package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.simulator.support.TestNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node that agents can talk to: a required (or asked-for) tool is called with an input that fits its schema, and the
 * turn after the tool's result is text; thinking comes first with a signature; {@code n} gives that many choices; a stop
 * sequence ends the text; legacy completions are answered; {@code ignore_eos} generates the whole limit; all of it the
 * same for the same request.
 */
class AgentBehaviourTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
            + "\"days\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":7},\"unit\":{\"enum\":[\"c\",\"f\"]},"
            + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":2},"
            + "\"where\":{\"$ref\":\"#/$defs/place\"}},\"required\":[\"city\",\"days\",\"unit\",\"tags\",\"where\"],"
            + "\"$defs\":{\"place\":{\"type\":\"object\",\"properties\":{\"lat\":{\"type\":\"number\"}},"
            + "\"required\":[\"lat\"]}}}";
    private static TestNode node;

    @BeforeAll
    static void start() {
        node = TestNode.fast();
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String anthropicTools(String prompt, String choice, boolean stream) {
        return "{\"model\":\"m\",\"max_tokens\":256,\"stream\":" + stream + ",\"tools\":[{\"name\":\"get_weather\","
                + "\"input_schema\":" + SCHEMA + "},{\"name\":\"other\",\"input_schema\":{\"type\":\"object\"}}]"
                + (choice == null ? "" : ",\"tool_choice\":" + choice)
                + ",\"messages\":[{\"role\":\"user\",\"content\":" + JSON.writeValueAsString(prompt) + "}]}";
    }

    @Test
    void aRequiredToolIsCalledWithAnInputThatFitsItsSchema() {
        JsonNode message = json(node.post("/v1/messages", anthropicTools("Weather in `Lisbon` please",
                "{\"type\":\"tool\",\"name\":\"get_weather\"}", false)));

        assertThat(message.path("stop_reason").stringValue()).isEqualTo("tool_use");
        JsonNode use = message.path("content").path(0);
        assertThat(use.path("type").stringValue()).isEqualTo("tool_use");
        assertThat(use.path("id").stringValue()).startsWith("toolu_");
        assertThat(use.path("name").stringValue()).isEqualTo("get_weather");
        JsonNode input = use.path("input");
        // the prompt's backquoted word fills the first string; every required property is there, within its bounds
        assertThat(input.path("city").stringValue()).isEqualTo("Lisbon");
        assertThat(input.path("days").intValue()).isBetween(1, 7);
        assertThat(input.path("unit").stringValue()).isIn("c", "f");
        assertThat(input.path("tags").size()).isGreaterThanOrEqualTo(2);
        assertThat(input.path("where").path("lat").isNumber()).isTrue();
        assertThat(message.path("usage").path("output_tokens").intValue()).isPositive();
    }

    @Test
    void aToolAskedForByNameIsCalledAndItsResultIsAnsweredInText() {
        JsonNode first = json(node.post("/v1/messages", anthropicTools("Please use the get_weather tool", null,
                false)));
        assertThat(first.path("stop_reason").stringValue()).isEqualTo("tool_use");
        JsonNode none = json(node.post("/v1/messages", anthropicTools("What is the weather like?", null, false)));
        assertThat(none.path("stop_reason").stringValue()).isNotEqualTo("tool_use");
        String id = first.path("content").path(0).path("id").stringValue();
        String after = "{\"model\":\"m\",\"max_tokens\":64,\"tools\":[{\"name\":\"get_weather\",\"input_schema\":"
                + SCHEMA + "}],\"messages\":[{\"role\":\"user\",\"content\":\"Please use the get_weather tool\"},"
                + "{\"role\":\"assistant\",\"content\":" + first.path("content") + "},{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id + "\",\"content\":\"sunny\"}]}]}";
        JsonNode answer = json(node.post("/v1/messages", after));
        assertThat(answer.path("content").path(0).path("type").stringValue()).isEqualTo("text");
        assertThat(answer.path("stop_reason").stringValue()).isIn("end_turn", "max_tokens");
    }

    @Test
    void aToolCallStreamsItsInputAsPartialJsonThatAddsUpToTheWholeAnswersInput() {
        String prompt = "Weather in `Porto`";
        JsonNode whole = json(node.post("/v1/messages", anthropicTools(prompt, "{\"type\":\"any\"}", false)));
        HttpResponse<String> stream = node.post("/v1/messages", anthropicTools(prompt, "{\"type\":\"any\"}", true));
        StringBuilder partial = new StringBuilder();
        for (String line : stream.body().split("\n")) {
            if (line.startsWith("data: ") && line.contains("input_json_delta")) {
                partial.append(JSON.readTree(line.substring(6)).path("delta").path("partial_json").stringValue());
            }
        }
        assertThat(stream.body()).contains("\"content_block\":{\"type\":\"tool_use\"")
                .contains("\"stop_reason\":\"tool_use\"");
        assertThat(JSON.readTree(partial.toString())).isEqualTo(whole.path("content").path(0).path("input"));
    }

    @Test
    void thinkingComesFirstWithASignature() {
        String body = "{\"model\":\"m\",\"max_tokens\":256,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Think, then answer.\"}]}";
        JsonNode message = json(node.post("/v1/messages", body));
        JsonNode thinking = message.path("content").path(0);
        assertThat(thinking.path("type").stringValue()).isEqualTo("thinking");
        assertThat(thinking.path("thinking").stringValue()).isNotEmpty();
        assertThat(thinking.path("signature").stringValue()).isNotEmpty();
        assertThat(message.path("content").path(1).path("type").stringValue()).isEqualTo("text");
        // streamed: thinking deltas, then the signature, before the text block
        String stream = node.post("/v1/messages", body.replace("{\"model\"", "{\"stream\":true,\"model\"")).body();
        assertThat(stream.indexOf("thinking_delta")).isPositive().isLessThan(stream.indexOf("signature_delta"));
        assertThat(stream.indexOf("signature_delta")).isLessThan(stream.indexOf("text_delta"));
        // omitted: the block is there, its text empty, its signature not
        JsonNode omitted = json(node.post("/v1/messages", body.replace("\"budget_tokens\":1024",
                "\"budget_tokens\":1024,\"display\":\"omitted\"")));
        assertThat(omitted.path("content").path(0).path("thinking").stringValue()).isEmpty();
        assertThat(omitted.path("content").path(0).path("signature").stringValue()).isNotEmpty();
    }

    @Test
    void nGivesThatManyChoicesAndAStopSequenceEndsTheText() {
        String body = "{\"model\":\"m\",\"n\":3,\"max_tokens\":40,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
        JsonNode completion = json(node.post("/v1/chat/completions", body));
        assertThat(completion.path("choices")).hasSize(3);
        List<String> texts = new ArrayList<>();
        completion.path("choices").forEach(choice -> texts.add(choice.path("message").path("content").stringValue()));
        assertThat(texts).doesNotHaveDuplicates();
        assertThat(completion.path("choices").path(2).path("index").intValue()).isEqualTo(2);
        String stream = node.post("/v1/chat/completions", body.replace("{\"model\"", "{\"stream\":true,\"model\""))
                .body();
        assertThat(stream).contains("\"index\":2,\"delta\":{\"role\":\"assistant\"").endsWith("data: [DONE]\n\n");

        String text = texts.get(0);
        String stop = text.substring(text.indexOf(' ', 5), text.indexOf(' ', 5) + 3);
        JsonNode stopped = json(node.post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":40,\"stop_sequences\":["
                + JSON.writeValueAsString(stop) + "],\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"));
        String cut = stopped.path("content").path(0).path("text").stringValue();
        assertThat(stopped.path("stop_reason").stringValue()).isEqualTo("stop_sequence");
        assertThat(stopped.path("stop_sequence").stringValue()).isEqualTo(stop);
        assertThat(cut).doesNotContain(stop);
    }

    @Test
    void legacyCompletionsAndTheSameAnswerForTheSameRequest() {
        JsonNode completion = json(node.post("/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"Once upon a time\",\"max_tokens\":8}"));
        assertThat(completion.path("object").stringValue()).isEqualTo("text_completion");
        assertThat(completion.path("choices").path(0).path("text").stringValue()).isNotEmpty();
        assertThat(completion.path("usage").path("completion_tokens").intValue()).isBetween(1, 8);
        String stream = node.post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"Once\",\"max_tokens\":8,"
                + "\"stream\":true}").body();
        assertThat(stream).contains("\"object\":\"text_completion\"").endsWith("data: [DONE]\n\n");

        // vLLM's ignore_eos: the whole limit, stopped by it
        JsonNode whole = json(node.post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":300,\"ignore_eos\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"));
        assertThat(whole.path("usage").path("output_tokens").intValue()).isEqualTo(300);
        assertThat(whole.path("stop_reason").stringValue()).isEqualTo("max_tokens");

        String request = anthropicTools("Weather in `Lisbon` please", "{\"type\":\"any\"}", false);
        assertThat(json(node.post("/v1/messages", request)).path("content"))
                .isEqualTo(json(node.post("/v1/messages", request)).path("content"));
    }
}
