package dev.zerolayer.routing.tokens.template;

import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A Hugging Face chat template (Jinja2 as transformers renders it) parsed once; rendering is thread-safe. */
public final class ChatTemplate {
    private final List<Stmt> body;
    private final Clock clock;

    private ChatTemplate(List<Stmt> body, Clock clock) {
        this.body = body;
        this.clock = clock;
    }

    /** Parses with the system clock for strftime_now; throws TemplateException on syntax errors or unsupported features. */
    public static ChatTemplate parse(String source) {
        return parse(source, Clock.systemDefaultZone());
    }

    /** Parses with the given clock (its zone is the local time strftime_now formats). */
    public static ChatTemplate parse(String source, Clock clock) {
        return new ChatTemplate(Parser.parse(source), clock);
    }

    /**
     * Renders with the caller's variables (messages, tools, add_generation_prompt, bos_token, eos_token, extra
     * kwargs); values are JSON-like Java objects, a null value is Python None and an absent key is undefined.
     */
    public String render(Map<String, Object> context) {
        Map<String, Object> base = new HashMap<>(4);
        base.put("strftime_now", (PyCallable) (args, kw, line) -> {
            Methods.arity("strftime_now", args, kw, 1, 1, line);
            if (!(args.get(0) instanceof String fmt)) {
                throw new TemplateException("TypeError: strftime() argument 1 must be str", line);
            }
            return Strftime.format(ZonedDateTime.now(clock), fmt, line);
        });
        Scope globals = new Scope(null, clock, base);
        Map<String, Object> vars = new HashMap<>(Math.max(16, context.size() * 2));
        for (Map.Entry<String, Object> e : context.entrySet()) {
            vars.put(e.getKey(), Py.normalize(e.getValue()));
        }
        Scope top = new Scope(globals, clock, vars);
        StringBuilder out = new StringBuilder(1024);
        try {
            Stmt.renderAll(body, out, top);
        } catch (StackOverflowError e) {
            throw new TemplateException("template recursion too deep", 0);
        }
        return out.toString();
    }
}
