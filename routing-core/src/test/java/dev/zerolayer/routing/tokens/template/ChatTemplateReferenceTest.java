package dev.zerolayer.routing.tokens.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders every template of src/test/resources/chat-templates with every case of cases.json (and the generated
 * conversations of cases_generated.json) and compares byte for
 * byte with expected.json, which render_reference.py produced with Python Jinja2 in Hugging Face's environment.
 */
class ChatTemplateReferenceTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static Path dir() throws URISyntaxException {
        return Path.of(ChatTemplateReferenceTest.class.getResource("/chat-templates").toURI());
    }

    @SuppressWarnings("unchecked")
    @TestFactory
    Stream<DynamicTest> rendersExactlyAsPythonJinja2() throws IOException, URISyntaxException {
        Path dir = dir();
        List<Map<String, Object>> cases = new ArrayList<>(
                JSON.readValue(Files.readString(dir.resolve("cases.json")), List.class));
        // random conversations render_reference.py generated (seeded) and rendered alongside
        cases.addAll(JSON.readValue(Files.readString(dir.resolve("cases_generated.json")), List.class));
        Map<String, Map<String, Map<String, String>>> expected =
                JSON.readValue(Files.readString(dir.resolve("expected.json")), Map.class);
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, Map<String, Map<String, String>>> t : expected.entrySet()) {
            String source = Files.readString(dir.resolve(t.getKey()));
            for (Map<String, Object> c : cases) {
                String name = (String) c.get("name");
                Map<String, String> want = t.getValue().get(name);
                if (want == null) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(t.getKey() + " / " + name, () -> {
                    Clock clock = Clock.fixed(LocalDateTime.parse((String) c.get("now")).toInstant(ZoneOffset.UTC),
                            ZoneOffset.UTC);
                    ChatTemplate template = ChatTemplate.parse(source, clock);
                    Map<String, Object> context = (Map<String, Object>) c.get("context");
                    if (want.containsKey("output")) {
                        assertThat(template.render(context)).isEqualTo(want.get("output"));
                    } else {
                        assertThatThrownBy(() -> template.render(context)).isInstanceOf(TemplateException.class);
                    }
                }));
            }
        }
        assertThat(tests).hasSizeGreaterThan(800);
        return tests.stream();
    }
}
