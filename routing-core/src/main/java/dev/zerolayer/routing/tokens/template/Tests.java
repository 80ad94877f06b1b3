package dev.zerolayer.routing.tokens.template;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Jinja2 3.1's built-in tests (`x is name`) with Python semantics; a name not here is refused at parse time. */
final class Tests {
    /** A test: value plus arguments to a boolean. */
    interface Fn {
        boolean test(Object value, List<Object> args, int line);
    }

    private static final Map<String, Fn> TABLE = new HashMap<>();

    private Tests() {
    }

    static Fn get(String name) {
        return TABLE.get(name);
    }

    private static void reg(Fn fn, String... names) {
        for (String n : names) {
            TABLE.put(n, fn);
        }
    }

    private static Object arg(List<Object> args, int n, String test, int line) {
        if (args.size() != n) {
            throw new TemplateException("TypeError: test '" + test + "' takes " + n + " argument(s), got "
                    + args.size(), line);
        }
        return n == 0 ? null : args.get(0);
    }

    static {
        reg((v, a, l) -> arg(a, 0, "defined", l) == null && !(v instanceof Undefined), "defined");
        reg((v, a, l) -> arg(a, 0, "undefined", l) == null && v instanceof Undefined, "undefined");
        reg((v, a, l) -> arg(a, 0, "none", l) == null && v == null, "none");
        reg((v, a, l) -> arg(a, 0, "string", l) == null && (v instanceof String || v instanceof Markup), "string");
        reg((v, a, l) -> arg(a, 0, "number", l) == null && Py.isNumber(v), "number");
        reg((v, a, l) -> arg(a, 0, "integer", l) == null && v instanceof Long, "integer");
        reg((v, a, l) -> arg(a, 0, "float", l) == null && v instanceof Double, "float");
        reg((v, a, l) -> arg(a, 0, "boolean", l) == null && v instanceof Boolean, "boolean");
        reg((v, a, l) -> arg(a, 0, "true", l) == null && Boolean.TRUE.equals(v), "true");
        reg((v, a, l) -> arg(a, 0, "false", l) == null && Boolean.FALSE.equals(v), "false");
        reg((v, a, l) -> arg(a, 0, "mapping", l) == null && v instanceof Map, "mapping");
        reg((v, a, l) -> arg(a, 0, "iterable", l) == null && (v instanceof String || v instanceof List
                || v instanceof Map || v instanceof PyTuple || v instanceof DictView || v instanceof PyIter
                || v instanceof Undefined || v instanceof Markup || v instanceof PyRange), "iterable");
        reg((v, a, l) -> arg(a, 0, "sequence", l) == null && (v instanceof String || v instanceof List
                || v instanceof Map || v instanceof PyTuple || v instanceof Undefined || v instanceof Markup
                || v instanceof PyRange), "sequence");
        reg((v, a, l) -> arg(a, 0, "callable", l) == null && (v instanceof PyCallable || v instanceof Undefined
                || v instanceof LoopInfo), "callable");
        reg((v, a, l) -> Py.eq(v, arg(a, 1, "eq", l)), "eq", "equalto", "==");
        reg((v, a, l) -> !Py.eq(v, arg(a, 1, "ne", l)), "ne", "!=");
        reg((v, a, l) -> Py.compare(v, arg(a, 1, "lt", l), "<", l) < 0, "lt", "lessthan", "<");
        reg((v, a, l) -> Py.compare(v, arg(a, 1, "le", l), "<=", l) <= 0, "le", "<=");
        reg((v, a, l) -> Py.compare(v, arg(a, 1, "gt", l), ">", l) > 0, "gt", "greaterthan", ">");
        reg((v, a, l) -> Py.compare(v, arg(a, 1, "ge", l), ">=", l) >= 0, "ge", ">=");
        reg((v, a, l) -> Py.contains(arg(a, 1, "in", l), v, l), "in");
        reg((v, a, l) -> arg(a, 0, "odd", l) == null && Py.eq(Py.binary("%", v, 2L, l), 1L), "odd");
        reg((v, a, l) -> arg(a, 0, "even", l) == null && Py.eq(Py.binary("%", v, 2L, l), 0L), "even");
        reg((v, a, l) -> Py.eq(Py.binary("%", v, arg(a, 1, "divisibleby", l), l), 0L), "divisibleby");
        reg((v, a, l) -> {
            Object o = arg(a, 1, "sameas", l);
            if (v == null || o == null || v instanceof Boolean || o instanceof Boolean) {
                return v == null ? o == null : v instanceof Boolean && v.equals(o);
            }
            throw new TemplateException("unsupported: 'sameas' on values other than none/true/false", l);
        }, "sameas");
        reg((v, a, l) -> arg(a, 0, "lower", l) == null && (Boolean) Methods.str(Py.str(v, l), "islower",
                List.of(), Map.of(), l), "lower");
        reg((v, a, l) -> arg(a, 0, "upper", l) == null && (Boolean) Methods.str(Py.str(v, l), "isupper",
                List.of(), Map.of(), l), "upper");
    }
}
