package dev.zerolayer.routing.tokens.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Refusals with their line, raise_exception, the injectable clock, input conversion, thread safety, a rough timing. */
class ChatTemplateUnitTest {

    private static TemplateException parseError(String source) {
        try {
            ChatTemplate.parse(source);
        } catch (TemplateException e) {
            return e;
        }
        throw new AssertionError("expected a TemplateException at parse for: " + source);
    }

    @Test
    void unknownFilterIsRefusedAtParseWithItsLine() {
        TemplateException e = parseError("line one\n{{ 'x' }}\n{{ messages | nosuchfilter }}");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.getMessage()).contains("nosuchfilter").contains("line 3");
    }

    @Test
    void unknownTestIsRefusedAtParse() {
        TemplateException e = parseError("{% if x %}\n{% endif %}\n\n{{ x is nosuchtest }}");
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.getMessage()).contains("nosuchtest");
    }

    @Test
    void loopControlsWorkInsideALoopAndAreRefusedOutsideOneOrInAMacro() {
        assertThat(ChatTemplate.parse("{% for i in range(4) %}{% if i == 2 %}{% break %}{% endif %}{{ i }}{% endfor %}")
                .render(Map.of())).isEqualTo("01");
        TemplateException e = parseError("{% if true %}\n  {% break %}\n{% endif %}");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.getMessage()).contains("break");
        assertThat(parseError("{% for m in messages %}{% macro f() %}{% continue %}{% endmacro %}{% endfor %}")
                .getMessage()).contains("continue");
        assertThat(parseError("{% for m in messages %}{% else %}{% break %}{% endfor %}").getMessage())
                .contains("outside a loop");
    }

    @Test
    void importIncludeExtendsAndOtherStatementsAreRefusedAtParse() {
        assertThat(parseError("a\nb\n{% import 'macros.j2' as m %}").line()).isEqualTo(3);
        assertThat(parseError("{% include 'x' %}").getMessage()).contains("include");
        assertThat(parseError("{% extends 'x' %}").getMessage()).contains("extends");
        assertThat(parseError("{% with a = 1 %}{% endwith %}").getMessage()).contains("with");
        assertThat(parseError("{% call m() %}{% endcall %}").getMessage()).contains("call");
        assertThat(parseError("{% for x in y recursive %}{% endfor %}").getMessage()).contains("recursive");
        assertThat(parseError("{{ f(*args) }}").getMessage()).contains("*args");
        assertThat(parseError("{{ self }}").getMessage()).contains("self");
    }

    @Test
    void syntaxErrorsCarryTheirLine() {
        assertThat(parseError("ok\n{% if true %}\nnever closed").getMessage()).contains("endif");
        assertThat(parseError("\n\n{{ (1 }}").line()).isEqualTo(3);
        assertThat(parseError("{{ 'unterminated }}").line()).isEqualTo(1);
    }

    @Test
    void raiseExceptionThrowsWithTheMessage() {
        ChatTemplate t = ChatTemplate.parse(
                "{% if messages | length == 0 %}\n{{ raise_exception('Conversation must not be empty!') }}\n{% endif %}");
        assertThatThrownBy(() -> t.render(Map.of("messages", List.of())))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Conversation must not be empty!")
                .satisfies(e -> assertThat(((TemplateException) e).line()).isEqualTo(2));
        assertThat(t.render(Map.of("messages", List.of(Map.of("role", "user"))))).isEmpty();
    }

    @Test
    void strftimeNowUsesTheInjectedClock() {
        Clock clock = Clock.fixed(Instant.parse("2025-03-09T07:08:09Z"), ZoneOffset.UTC);
        ChatTemplate t = ChatTemplate.parse("{{ strftime_now('%d %b %Y|%A %B %y %H:%M:%S %j %%') }}", clock);
        assertThat(t.render(Map.of())).isEqualTo("09 Mar 2025|Sunday March 25 07:08:09 068 %");
        assertThatThrownBy(() -> ChatTemplate.parse("{{ strftime_now('%Q') }}", clock).render(Map.of()))
                .isInstanceOf(TemplateException.class).hasMessageContaining("%Q");
    }

    @Test
    void contextValuesOfAnyJsonShapeAreAccepted() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("z", 1);
        args.put("a", new java.math.BigDecimal("2.50"));
        args.put("n", null);
        args.put("l", 3L);
        args.put("f", 1.0f);
        Map<String, Object> ctx = new HashMap<>();
        ctx.put("args", args);
        ctx.put("absent_is_not_none", null);
        ChatTemplate t = ChatTemplate.parse(
                "{{ args | tojson }} {{ args }} {{ absent_is_not_none is none }} {{ missing is defined }}");
        assertThat(t.render(ctx)).isEqualTo(
                "{\"z\": 1, \"a\": 2.5, \"n\": null, \"l\": 3, \"f\": 1.0} {'z': 1, 'a': 2.5, 'n': None, 'l': 3, 'f': 1.0}"
                        + " True False");
    }

    @Test
    void undefinedOperationsThrowWherePythonDoes() {
        assertThatThrownBy(() -> ChatTemplate.parse("{{ nothing.attr }}").render(Map.of()))
                .isInstanceOf(TemplateException.class).hasMessageContaining("'nothing' is undefined");
        assertThatThrownBy(() -> ChatTemplate.parse("{{ nothing + 'x' }}").render(Map.of()))
                .isInstanceOf(TemplateException.class);
        assertThat(ChatTemplate.parse("[{{ nothing }}{{ nothing | length }}]").render(Map.of())).isEqualTo("[0]");
    }

    private static Map<String, Object> conversation(int turns) {
        List<Object> messages = new ArrayList<>();
        messages.add(Map.of("role", "system", "content", "You are a helpful assistant. Answer briefly."));
        for (int i = 0; i < turns; i++) {
            messages.add(Map.of("role", "user", "content", "Question number " + i + ": what is " + i + " + " + i + "?"));
            messages.add(Map.of("role", "assistant", "content",
                    "<think>\nAdd " + i + " to itself.\n</think>\n\nThe answer is " + (2 * i) + "."));
        }
        messages.add(Map.of("role", "user", "content", "Thanks! One more: 2 + 2?"));
        Map<String, Object> ctx = new HashMap<>();
        ctx.put("messages", messages);
        ctx.put("tools", null);
        ctx.put("add_generation_prompt", true);
        ctx.put("bos_token", "");
        ctx.put("eos_token", "<|im_end|>");
        return ctx;
    }

    private static String qwen3() throws IOException, URISyntaxException {
        return Files.readString(Path.of(ChatTemplateUnitTest.class.getResource("/chat-templates/qwen3.jinja").toURI()));
    }

    @Test
    void renderingIsThreadSafe() throws Exception {
        ChatTemplate t = ChatTemplate.parse(qwen3());
        Map<String, Object> ctx = conversation(5);
        String expected = t.render(ctx);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                futures.add(pool.submit(() -> t.render(ctx)));
            }
            for (Future<String> f : futures) {
                assertThat(f.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A rough figure only (printed, not asserted): Qwen3's template over a 20-message conversation. */
    @Test
    void roughRenderTime() throws Exception {
        ChatTemplate t = ChatTemplate.parse(qwen3());
        Map<String, Object> ctx = conversation(9); // 1 system + 18 turns + 1 user = 20 messages
        int chars = 0;
        for (int i = 0; i < 20_000; i++) {
            chars += t.render(ctx).length();
        }
        int n = 20_000;
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            chars += t.render(ctx).length();
        }
        long perRender = (System.nanoTime() - start) / n;
        long parseStart = System.nanoTime();
        ChatTemplate.parse(qwen3());
        long parse = System.nanoTime() - parseStart;
        System.out.printf("ChatTemplate qwen3, 20 messages: %d us per render, parse %d us (%d chars)%n",
                perRender / 1000, parse / 1000, chars);
        assertThat(chars).isPositive();
    }
}
