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
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Small templates (snippets.json) rendered by Python Jinja2 in HF's environment (expected_snippets.json): Java must
 * render the same bytes, throw where Python raised, and refuse (TemplateException "unsupported") the few listed
 * snippets Python renders with features this renderer deliberately does not implement.
 */
class ChatTemplateSnippetTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** Python renders these, the Java renderer refuses them (object reprs with addresses, with, batch...). */
    private static final Set<String> REFUSED = Set.of(
            "{% set d = {'a': 1} %}{{ d.items }}",
            "{{ '%s' }} {{ '{}'.format }}|",
            "{{ '{}'.format(1) }}",
            "{{ [1, 2] | reverse }}",
            "{{ [1, 2, 3] | batch(2) | list }}",
            "{% with a = 1 %}{{ a }}{% endwith %}",
            "{{ self }}",
            "{% set a = [1, 2] %}{% set b = a %}{{ a is sameas b }}",
            "{{ range(3)[1:] }}",
            "{{ '%s!' % 'x' }}",
            "{{ {'x': 1}.x }} {{ {'x': 1}['x'] }} {{ {'get': 5}.get }}|",
            "{{ 'AbC'.swapcase() }}",
            "{% set n = namespace(d={'a': 1}) %}{{ n.d.a }} {{ n }}",
            "{{ 1 is sameas 1 }}",
            "{{ kwargs }}",
            "{% macro f() %}{{ varargs }}{% endmacro %}{{ f(1) }}");

    @SuppressWarnings("unchecked")
    @TestFactory
    Stream<DynamicTest> snippetsRenderExactlyAsPythonJinja2() throws IOException, URISyntaxException {
        Path dir = Path.of(getClass().getResource("/chat-templates").toURI());
        Map<String, Object> expected = JSON.readValue(Files.readString(dir.resolve("expected_snippets.json")), Map.class);
        Clock clock = Clock.fixed(LocalDateTime.parse((String) expected.get("now")).toInstant(ZoneOffset.UTC),
                ZoneOffset.UTC);
        Map<String, Object> context = (Map<String, Object>) expected.get("context");
        List<DynamicTest> tests = new ArrayList<>();
        int i = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) expected.get("results")) {
            String source = (String) r.get("source");
            String title = "#" + (i++) + " " + source.replace("\n", "\\n");
            tests.add(DynamicTest.dynamicTest(title.length() > 80 ? title.substring(0, 80) : title, () -> {
                if (Boolean.TRUE.equals(r.get("fuzz")) && r.containsKey("output")) {
                    String got;
                    try {
                        got = ChatTemplate.parse(source, clock).render(context);
                    } catch (TemplateException e) {
                        assertThat(e.getMessage()).as("only a refusal may replace Python's output").contains("unsupported");
                        return;
                    }
                    assertThat(got).isEqualTo(r.get("output"));
                } else if (REFUSED.contains(source)) {
                    assertThatThrownBy(() -> ChatTemplate.parse(source, clock).render(context))
                            .isInstanceOf(TemplateException.class).hasMessageContaining("unsupported");
                } else if (r.containsKey("output")) {
                    assertThat(ChatTemplate.parse(source, clock).render(context)).isEqualTo(r.get("output"));
                } else {
                    assertThatThrownBy(() -> ChatTemplate.parse(source, clock).render(context))
                            .as("Python raised %s", r.get("error")).isInstanceOf(TemplateException.class);
                }
            }));
        }
        return tests.stream();
    }
}
