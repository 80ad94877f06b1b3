package dev.zerolayer.routing.tokens.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The global functions of HF's chat-template environment: range, namespace, dict, raise_exception (strftime_now is bound per render to the clock, in ChatTemplate). */
final class Globals {
    private Globals() {
    }

    static final PyCallable RANGE = (args, kw, line) -> {
        Methods.arity("range", args, kw, 1, 3, line);
        for (Object a : args) {
            if (!Py.isInt(a)) {
                throw new TemplateException("TypeError: range() integer argument expected, got " + Py.typeName(a), line);
            }
        }
        long start = args.size() == 1 ? 0 : Py.asLong(args.get(0));
        long stop = args.size() == 1 ? Py.asLong(args.get(0)) : Py.asLong(args.get(1));
        long step = args.size() == 3 ? Py.asLong(args.get(2)) : 1;
        if (step == 0) {
            throw new TemplateException("ValueError: range() arg 3 must not be zero", line);
        }
        List<Object> out = new ArrayList<>();
        for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
            if (out.size() >= 100_000) {
                throw new TemplateException("OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).", line);
            }
            out.add(i);
        }
        return new PyRange(out, start, stop, step);
    };

    static final PyCallable NAMESPACE = (args, kw, line) -> {
        Namespace ns = new Namespace();
        for (Object a : args) {
            if (!(a instanceof Map<?, ?> m)) {
                throw new TemplateException("unsupported: namespace() positional argument that is not a dict", line);
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                ns.attrs.put(Py.str(e.getKey(), line), e.getValue());
            }
        }
        ns.attrs.putAll(kw);
        return ns;
    };

    static final PyCallable DICT = (args, kw, line) -> {
        if (!args.isEmpty()) {
            throw new TemplateException("unsupported: dict() with positional arguments", line);
        }
        return new LinkedHashMap<Object, Object>(kw);
    };

    static final PyCallable RAISE = (args, kw, line) -> {
        Methods.arity("raise_exception", args, kw, 1, 1, line);
        throw new TemplateException(Py.str(args.get(0), line), line);
    };

    static Object get(String name) {
        return switch (name) {
            case "range" -> RANGE;
            case "namespace" -> NAMESPACE;
            case "dict" -> DICT;
            case "raise_exception" -> RAISE;
            case "lipsum", "cycler", "joiner" -> (PyCallable) (args, kw, line) -> {
                throw new TemplateException("unsupported global " + name + "()", line);
            };
            default -> Undefined.named(name);
        };
    }
}
