package dev.zerolayer.routing.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An OpenAI chat body gives the ids of the prompt vLLM would render for it with Qwen3's chat template: the expected
 * prompts were rendered by Python's Jinja2 with transformers' settings from the variables vLLM prepares for each body
 * ({@code served/render_expected.py}); bodies whose prompt depends on what the router cannot see are refused with the
 * reason.
 */
class ServedModelTest {

    private static ServedModel model;
    private static JsonNode cases;
    private static JsonNode expected;

    @BeforeAll
    static void load() throws Exception {
        model = ServedModel.load(resource("tokenizers/qwen3-trimmed").toString());
        cases = EventCodec.mapper().readTree(Files.readString(resource("tokenizers/served/cases.json")));
        expected = EventCodec.mapper().readTree(Files.readString(resource("tokenizers/served/expected.json")));
    }

    @Test
    void everyPreparedCaseGivesTheIdsOfThePromptJinjaRendered() {
        int checked = 0;
        for (JsonNode item : cases) {
            if (!item.has("prepared")) {
                continue;
            }
            String name = item.path("name").asString();
            ServedModel.Prompt prompt = model.chat(item.path("body"));
            assertThat(prompt.problem()).as(name).isNull();
            assertThat(prompt.ids()).as(name)
                    .containsExactly(model.tokenizer().ids(expected.path(name).asString()));
            checked++;
        }
        assertThat(checked).isEqualTo(4);
    }

    @Test
    void theRenderedPromptIsWhatJinjaRendered() {
        for (JsonNode item : cases) {
            if (item.has("prepared")) {
                String name = item.path("name").asString();
                assertThat(model.render(item.path("body"))).as(name).isEqualTo(expected.path(name).asString());
            }
        }
    }

    @Test
    void aPromptThatDependsOnWhatTheRouterCannotSeeIsRefusedWithTheReason() {
        for (JsonNode item : cases) {
            if (item.has("problem")) {
                ServedModel.Prompt prompt = model.chat(item.path("body"));
                assertThat(prompt.problem()).as(item.path("name").asString())
                        .contains(item.path("problem").asString());
                assertThat(prompt.ids()).isEmpty();
            }
        }
    }

    @Test
    void aCompletionsPromptIsTokenizedAsSentAndTokenIdsPassThrough() {
        JsonNode text = EventCodec.mapper().readTree(
                "{\"prompt\": \"Hello there, completions prompt without a template.\"}");
        assertThat(model.completion(text).ids())
                .containsExactly(model.tokenizer().ids("Hello there, completions prompt without a template."));
        JsonNode ids = EventCodec.mapper().readTree("{\"prompt\": [9707, 1052]}");
        assertThat(model.completion(ids).ids()).containsExactly(9707, 1052);
        assertThat(model.completion(EventCodec.mapper().readTree("{\"prompt\": [\"a\", \"b\"]}")).problem())
                .isNotNull();
    }

    @Test
    void toolCallArgumentsThatAreNotJsonMakeThePromptInexact() {
        JsonNode body = EventCodec.mapper().readTree("""
                {"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": null,
                 "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{not json"}}]},
                 {"role": "tool", "tool_call_id": "c", "content": "y"}]}""");
        assertThat(model.chat(body).problem()).contains("not JSON");
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(ServedModelTest.class.getClassLoader().getResource(name).toURI());
    }
}
