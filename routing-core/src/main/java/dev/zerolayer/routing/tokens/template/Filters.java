package dev.zerolayer.routing.tokens.template;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Jinja2 3.1's built-in filters (plus HF's tojson) with Python semantics; a name not here is refused at parse time. */
final class Filters {
    /** A filter: value plus call arguments to a result. */
    interface Fn {
        Object apply(Object value, List<Object> args, Map<String, Object> kw, Scope s, int line);
    }

    private static final Map<String, Fn> TABLE = new HashMap<>();

    private Filters() {
    }

    static Fn get(String name) {
        return TABLE.get(name);
    }

    /** Binds positional and keyword arguments to parameter names (after the value); absent ones are Py.MISSING. */
    static Object[] bind(String filter, List<Object> args, Map<String, Object> kw, int line, String... names) {
        if (args.size() > names.length) {
            throw new TemplateException("TypeError: " + filter + "() takes at most " + names.length + " arguments",
                    line);
        }
        Object[] out = new Object[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = i < args.size() ? args.get(i) : Py.MISSING;
        }
        for (Map.Entry<String, Object> e : kw.entrySet()) {
            int idx = -1;
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(e.getKey())) {
                    idx = i;
                }
            }
            if (idx < 0) {
                throw new TemplateException("TypeError: " + filter + "() got an unexpected keyword argument '"
                        + e.getKey() + "'", line);
            }
            if (out[idx] != Py.MISSING) {
                throw new TemplateException("TypeError: " + filter + "() got multiple values for argument '"
                        + e.getKey() + "'", line);
            }
            out[idx] = e.getValue();
        }
        return out;
    }

    private static Object or(Object v, Object dflt) {
        return v == Py.MISSING ? dflt : v;
    }

    private static String softStr(Object v, int line) {
        if (v instanceof Markup) {
            throw new TemplateException("unsupported: string filter on a Markup (safe/escape) value", line);
        }
        return Py.str(v, line);
    }

    private static void reg(Fn fn, String... names) {
        for (String n : names) {
            TABLE.put(n, fn);
        }
    }

    static {
        reg((v, a, k, s, l) -> {
            bind("length", a, k, l);
            if (v instanceof PyIter) {
                throw new TemplateException("TypeError: object of type 'generator' has no len()", l);
            }
            return Py.length(v, l);
        }, "length", "count");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("tojson", a, k, l, "ensure_ascii", "indent", "separators", "sort_keys");
            return Json.dumps(v, Py.truthy(or(p[0], false)), or(p[1], null), or(p[2], null),
                    Py.truthy(or(p[3], false)), l);
        }, "tojson");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("trim", a, k, l, "chars");
            Object chars = or(p[0], null);
            return Methods.strip(softStr(v, l), chars == null ? null : softStr(chars, l), true, true);
        }, "trim");
        reg((v, a, k, s, l) -> {
            bind("upper", a, k, l);
            return softStr(v, l).toUpperCase(java.util.Locale.ROOT);
        }, "upper");
        reg((v, a, k, s, l) -> {
            bind("lower", a, k, l);
            return softStr(v, l).toLowerCase(java.util.Locale.ROOT);
        }, "lower");
        reg((v, a, k, s, l) -> {
            bind("capitalize", a, k, l);
            return Methods.capitalize(softStr(v, l));
        }, "capitalize");
        reg((v, a, k, s, l) -> {
            bind("title", a, k, l);
            return jinjaTitle(softStr(v, l));
        }, "title");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("replace", a, k, l, "old", "new", "count");
            if (p[0] == Py.MISSING || p[1] == Py.MISSING) {
                throw new TemplateException("TypeError: replace() missing arguments", l);
            }
            Object count = or(p[2], null);
            long c = count == null ? -1 : Py.asLong(count);
            return Methods.replace(softStr(v, l), softStr(p[0], l), softStr(p[1], l), c);
        }, "replace");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("join", a, k, l, "d", "attribute");
            List<Object> items = Py.iterate(v, l);
            Object attr = or(p[1], null);
            String sep = softStr(or(p[0], ""), l);
            StringBuilder sb = new StringBuilder();
            boolean first = true;
            for (Object o : items) {
                if (!first) {
                    sb.append(sep);
                }
                first = false;
                sb.append(softStr(attr == null ? o : attrGet(o, attr, l), l));
            }
            return sb.toString();
        }, "join");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("default", a, k, l, "default_value", "boolean");
            if (v instanceof Undefined || (Py.truthy(or(p[1], false)) && !Py.truthy(v))) {
                return or(p[0], "");
            }
            return v;
        }, "default", "d");
        reg((v, a, k, s, l) -> {
            bind("first", a, k, l);
            if (v instanceof PyIter it) {
                Object o = it.next();
                return o == Py.MISSING ? new Undefined("No first item, sequence was empty.") : o;
            }
            List<Object> items = Py.iterate(v, l);
            return items.isEmpty() ? new Undefined("No first item, sequence was empty.") : items.get(0);
        }, "first");
        reg((v, a, k, s, l) -> {
            bind("last", a, k, l);
            if (v instanceof PyIter) {
                throw new TemplateException("TypeError: 'generator' object is not reversible", l);
            }
            List<Object> items = Py.iterate(v, l);
            return items.isEmpty() ? new Undefined("No last item, sequence was empty.") : items.get(items.size() - 1);
        }, "last");
        reg((v, a, k, s, l) -> {
            bind("list", a, k, l);
            return new ArrayList<>(Py.iterate(v, l));
        }, "list");
        reg((v, a, k, s, l) -> {
            bind("string", a, k, l);
            return softStr(v, l);
        }, "string");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("int", a, k, l, "default", "base");
            if (p[1] != Py.MISSING && !Py.eq(p[1], 10L)) {
                throw new TemplateException("unsupported: int filter with base", l);
            }
            return toInt(v, or(p[0], 0L), l);
        }, "int");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("float", a, k, l, "default");
            Double d = toFloat(v);
            return d == null ? or(p[0], 0.0) : d;
        }, "float");
        reg((v, a, k, s, l) -> {
            bind("abs", a, k, l);
            if (v instanceof Double d) {
                return Math.abs(d);
            }
            if (Py.isInt(v)) {
                long x = Py.asLong(v);
                if (x == Long.MIN_VALUE) {
                    throw new TemplateException("unsupported: integer overflow", l);
                }
                return Math.abs(x);
            }
            throw new TemplateException("TypeError: bad operand type for abs(): " + Py.typeName(v), l);
        }, "abs");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("round", a, k, l, "precision", "method");
            Object prec = or(p[0], 0L);
            String method = Py.str(or(p[1], "common"), l);
            return round(v, prec, method, l);
        }, "round");
        reg((v, a, k, s, l) -> {
            bind("items", a, k, l);
            if (v instanceof Undefined) {
                return new PyIter(new ArrayList<>());
            }
            if (!(v instanceof Map<?, ?> m)) {
                throw new TemplateException("FilterArgumentError: Can only get item pairs from a mapping.", l);
            }
            List<Object> out = new ArrayList<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.add(new PyTuple(java.util.Arrays.asList(e.getKey(), e.getValue())));
            }
            return new PyIter(out);
        }, "items");
        reg(Filters::map, "map");
        reg((v, a, k, s, l) -> select(v, a, k, s, l, false, true), "select");
        reg((v, a, k, s, l) -> select(v, a, k, s, l, false, false), "reject");
        reg((v, a, k, s, l) -> select(v, a, k, s, l, true, true), "selectattr");
        reg((v, a, k, s, l) -> select(v, a, k, s, l, true, false), "rejectattr");
        reg((v, a, k, s, l) -> {
            bind("reverse", a, k, l);
            if (v instanceof String str) {
                return Py.slice(str, null, null, -1L, l);
            }
            if (v instanceof PyIter) {
                List<Object> items = new ArrayList<>(Py.iterate(v, l));
                Collections.reverse(items);
                return items;
            }
            List<Object> items = new ArrayList<>(Py.iterate(v, l));
            Collections.reverse(items);
            return new PyIter(items);
        }, "reverse");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("sort", a, k, l, "reverse", "case_sensitive", "attribute");
            List<Object> items = new ArrayList<>(Py.iterate(v, l));
            sort(items, Py.truthy(or(p[0], false)), Py.truthy(or(p[1], false)), or(p[2], null), l);
            return items;
        }, "sort");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("unique", a, k, l, "case_sensitive", "attribute");
            boolean cs = Py.truthy(or(p[0], false));
            Object attr = or(p[1], null);
            List<Object> out = new ArrayList<>();
            List<Object> seen = new ArrayList<>();
            for (Object o : Py.iterate(v, l)) {
                Object key = sortKey(attr == null ? o : attrGet(o, attr, l), cs);
                boolean dup = false;
                for (Object x : seen) {
                    if (Py.eq(x, key)) {
                        dup = true;
                        break;
                    }
                }
                if (!dup) {
                    seen.add(key);
                    out.add(o);
                }
            }
            return new PyIter(out);
        }, "unique");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("dictsort", a, k, l, "case_sensitive", "by", "reverse");
            if (!(v instanceof Map<?, ?> m)) {
                throw new TemplateException("TypeError: dictsort needs a mapping", l);
            }
            boolean cs = Py.truthy(or(p[0], false));
            String by = Py.str(or(p[1], "key"), l);
            int pos;
            if (by.equals("key")) {
                pos = 0;
            } else if (by.equals("value")) {
                pos = 1;
            } else {
                throw new TemplateException("FilterArgumentError: You can only sort by either \"key\" or \"value\"", l);
            }
            List<Object> items = new ArrayList<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                items.add(new PyTuple(java.util.Arrays.asList(e.getKey(), e.getValue())));
            }
            Comparator<Object> cmp = (x, y) -> Py.compare(sortKey(((PyTuple) x).items().get(pos), cs),
                    sortKey(((PyTuple) y).items().get(pos), cs), "<", l);
            items.sort(Py.truthy(or(p[2], false)) ? cmp.reversed() : cmp);
            return items;
        }, "dictsort");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("sum", a, k, l, "attribute", "start");
            Object attr = or(p[0], null);
            Object acc = or(p[1], 0L);
            for (Object o : Py.iterate(v, l)) {
                acc = Py.binary("+", acc, attr == null ? o : attrGet(o, attr, l), l);
            }
            return acc;
        }, "sum");
        reg((v, a, k, s, l) -> minMax(v, a, k, l, true), "min");
        reg((v, a, k, s, l) -> minMax(v, a, k, l, false), "max");
        reg((v, a, k, s, l) -> {
            Object[] p = bind("indent", a, k, l, "width", "first", "blank");
            return indent(v, or(p[0], 4L), Py.truthy(or(p[1], false)), Py.truthy(or(p[2], false)), l);
        }, "indent");
        reg((v, a, k, s, l) -> {
            bind("safe", a, k, l);
            return v instanceof Markup ? v : new Markup(Py.str(v, l));
        }, "safe");
        reg((v, a, k, s, l) -> {
            bind("escape", a, k, l);
            return v instanceof Markup ? v : new Markup(htmlEscape(Py.str(v, l)));
        }, "escape", "e");
        reg((v, a, k, s, l) -> {
            bind("wordcount", a, k, l);
            String str = softStr(v, l);
            long n = 0;
            boolean in = false;
            for (int i = 0; i < str.length(); ) {
                int cp = str.codePointAt(i);
                i += Character.charCount(cp);
                boolean w = Character.isLetterOrDigit(cp) || cp == '_';
                if (w && !in) {
                    n++;
                }
                in = w;
            }
            return n;
        }, "wordcount");
    }

    static String htmlEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&#34;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Jinja2's title filter: each chunk after a run of -, whitespace or ( { [ < gets its first char upper, rest lower. */
    static String jinjaTitle(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int i = 0;
        int n = s.length();
        while (i < n) {
            int j = i;
            boolean delim = isTitleDelim(s.charAt(i));
            while (j < n && isTitleDelim(s.charAt(j)) == delim) {
                j++;
            }
            String item = s.substring(i, j);
            int cp = item.codePointAt(0);
            int cc = Character.charCount(cp);
            sb.append(item.substring(0, cc).toUpperCase(java.util.Locale.ROOT))
                    .append(item.substring(cc).toLowerCase(java.util.Locale.ROOT));
            i = j;
        }
        return sb.toString();
    }

    private static boolean isTitleDelim(char c) {
        return c == '-' || c == '(' || c == '{' || c == '[' || c == '<' || Lexer.isSpace(c);
    }

    /** Jinja2's make_attrgetter: dotted path, integer parts as indexes, each step via environment.getitem. */
    static Object attrGet(Object item, Object attribute, int line) {
        if (Py.isInt(attribute)) {
            return Py.getItem(item, attribute, line);
        }
        String path = Py.str(attribute, line);
        Object cur = item;
        for (String part : path.split("\\.", -1)) {
            Object key = part;
            if (!part.isEmpty() && part.chars().allMatch(Character::isDigit)) {
                key = Long.parseLong(part);
            }
            cur = Py.getItem(cur, key, line);
        }
        return cur;
    }

    private static Object sortKey(Object v, boolean caseSensitive) {
        return !caseSensitive && v instanceof String s ? s.toLowerCase(java.util.Locale.ROOT) : v;
    }

    private static void sort(List<Object> items, boolean reverse, boolean cs, Object attribute, int line) {
        List<Object> attrs = new ArrayList<>();
        if (attribute != null) {
            if (attribute instanceof String str) {
                for (String part : str.split(",", -1)) {
                    attrs.add(part.strip());
                }
            } else {
                attrs.add(attribute);
            }
        }
        Comparator<Object> cmp = (x, y) -> {
            if (attrs.isEmpty()) {
                return Py.compare(sortKey(x, cs), sortKey(y, cs), "<", line);
            }
            for (Object at : attrs) {
                int c = Py.compare(sortKey(attrGet(x, at, line), cs), sortKey(attrGet(y, at, line), cs), "<", line);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        items.sort(reverse ? cmp.reversed() : cmp);
    }

    private static Object minMax(Object v, List<Object> a, Map<String, Object> k, int l, boolean min) {
        Object[] p = bind(min ? "min" : "max", a, k, l, "case_sensitive", "attribute");
        boolean cs = Py.truthy(or(p[0], false));
        Object attr = or(p[1], null);
        List<Object> items = Py.iterate(v, l);
        if (items.isEmpty()) {
            return new Undefined("No aggregated item, sequence was empty.");
        }
        Object best = items.get(0);
        Object bestKey = sortKey(attr == null ? best : attrGet(best, attr, l), cs);
        for (int i = 1; i < items.size(); i++) {
            Object o = items.get(i);
            Object key = sortKey(attr == null ? o : attrGet(o, attr, l), cs);
            int c = Py.compare(key, bestKey, "<", l);
            if (min ? c < 0 : c > 0) {
                best = o;
                bestKey = key;
            }
        }
        return best;
    }

    private static Object map(Object v, List<Object> a, Map<String, Object> k, Scope s, int l) {
        if (!Py.truthy(v)) {
            return new PyIter(new ArrayList<>()); // Jinja2: `if value:` before even checking the arguments
        }
        List<Object> items = Py.iterate(v, l);
        List<Object> out = new ArrayList<>(items.size());
        if (a.isEmpty() && k.containsKey("attribute")) {
            Object attr = k.get("attribute");
            Object dflt = k.containsKey("default") ? k.get("default") : Py.MISSING;
            for (String key : k.keySet()) {
                if (!key.equals("attribute") && !key.equals("default")) {
                    throw new TemplateException("FilterArgumentError: Unexpected keyword argument '" + key + "'", l);
                }
            }
            for (Object o : items) {
                Object r = attrGet(o, attr, l);
                out.add(r instanceof Undefined && dflt != Py.MISSING ? dflt : r);
            }
            return new PyIter(out);
        }
        if (a.isEmpty()) {
            throw new TemplateException("FilterArgumentError: map requires a filter argument", l);
        }
        String name = Py.str(a.get(0), l);
        Fn fn = get(name);
        if (fn == null) {
            throw new TemplateException("No filter named '" + name + "' (unsupported)", l);
        }
        List<Object> rest = a.subList(1, a.size());
        for (Object o : items) {
            out.add(fn.apply(o, rest, k, s, l));
        }
        return new PyIter(out);
    }

    private static Object select(Object v, List<Object> a, Map<String, Object> k, Scope s, int l, boolean byAttr,
            boolean keep) {
        if (!Py.truthy(v)) {
            return new PyIter(new ArrayList<>()); // Jinja2: `if value:` before even checking the arguments
        }
        if (!k.isEmpty()) {
            throw new TemplateException("unsupported: keyword arguments to select/reject filters", l);
        }
        int off = 0;
        Object attr = null;
        if (byAttr) {
            if (a.isEmpty()) {
                throw new TemplateException("TypeError: missing attribute argument", l);
            }
            attr = a.get(0);
            off = 1;
        }
        Tests.Fn test = null;
        List<Object> testArgs = List.of();
        if (a.size() > off) {
            String name = Py.str(a.get(off), l);
            test = Tests.get(name);
            if (test == null) {
                throw new TemplateException("No test named '" + name + "' (unsupported)", l);
            }
            testArgs = a.subList(off + 1, a.size());
        }
        List<Object> out = new ArrayList<>();
        for (Object o : Py.iterate(v, l)) {
            Object x = byAttr ? attrGet(o, attr, l) : o;
            boolean r = test == null ? Py.truthy(x) : test.test(x, testArgs, l);
            if (r == keep) {
                out.add(o);
            }
        }
        return new PyIter(out);
    }

    static Object toInt(Object v, Object dflt, int line) {
        if (Py.isInt(v)) {
            return Py.asLong(v);
        }
        if (v instanceof Double d) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return dflt;
            }
            if (Math.abs(d) >= 9.2e18) {
                throw new TemplateException("unsupported: integer overflow", line);
            }
            return (long) d.doubleValue();
        }
        if (v instanceof String s) {
            String t = s.strip().replace("_", "");
            if (!t.isEmpty() && t.matches("[+-]?[0-9]+") && !s.contains("__") && !s.strip().startsWith("_")
                    && !s.strip().endsWith("_")) {
                try {
                    return Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
                } catch (NumberFormatException e) {
                    throw new TemplateException("unsupported: integer overflow", line);
                }
            }
            Double d = toFloat(v);
            if (d != null) {
                return toInt(d, dflt, line);
            }
        }
        return dflt;
    }

    static Double toFloat(Object v) {
        if (v instanceof Double d) {
            return d;
        }
        if (Py.isInt(v)) {
            return (double) Py.asLong(v);
        }
        if (v instanceof String s) {
            String t = s.strip();
            String low = t.toLowerCase(java.util.Locale.ROOT);
            String body = low.startsWith("+") || low.startsWith("-") ? low.substring(1) : low;
            if (body.equals("inf") || body.equals("infinity")) {
                return low.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            if (body.equals("nan")) {
                return Double.NaN;
            }
            if (t.matches("[+-]?([0-9]+(_[0-9]+)*(\\.([0-9]+(_[0-9]+)*)?)?|\\.[0-9]+(_[0-9]+)*)([eE][+-]?[0-9]+(_[0-9]+)*)?")) {
                return Double.parseDouble(t.replace("_", ""));
            }
        }
        return null;
    }

    private static Object round(Object v, Object prec, String method, int line) {
        if (!method.equals("common") && !method.equals("ceil") && !method.equals("floor")) {
            throw new TemplateException("FilterArgumentError: method must be common, ceil or floor", line);
        }
        if (!Py.isInt(prec)) {
            throw new TemplateException("TypeError: precision must be an integer", line);
        }
        int p = (int) Py.asLong(prec);
        if (method.equals("common")) {
            if (Py.isInt(v)) {
                if (p >= 0) {
                    return Py.asLong(v);
                }
                return new BigDecimal(Py.asLong(v)).setScale(p, RoundingMode.HALF_EVEN).longValueExact();
            }
            if (!(v instanceof Double d)) {
                throw new TemplateException("TypeError: type " + Py.typeName(v) + " doesn't define __round__", line);
            }
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return d;
            }
            double r = new BigDecimal(d).setScale(p, RoundingMode.HALF_EVEN).doubleValue();
            return r == 0 ? Math.copySign(0.0, d) : r; // Python keeps the sign: round(-0.4) is -0.0
        }
        if (!Py.isNumber(v)) {
            throw new TemplateException("TypeError: must be real number, not " + Py.typeName(v), line);
        }
        if (p < 0) {
            throw new TemplateException("unsupported: ceil/floor rounding to negative precision", line);
        }
        double scale = Math.pow(10, p);
        double r = method.equals("ceil") ? Math.ceil(Py.asDouble(v) * scale) : Math.floor(Py.asDouble(v) * scale);
        if (Double.isNaN(r) || Double.isInfinite(r) || Math.abs(r) >= 9.007199254740992e15) {
            throw new TemplateException("unsupported: ceil/floor rounding of a huge or non-finite value", line);
        }
        return (double) (long) r / scale; // math.ceil/floor return ints: no negative zero
    }

    static List<String> splitlines(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            boolean br = c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e
                    || c == 0x85 || c == 0x2028 || c == 0x2029;
            if (br) {
                out.add(s.substring(start, i));
                if (c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
            i++;
        }
        if (start < n) {
            out.add(s.substring(start));
        }
        return out;
    }

    private static String indent(Object v, Object width, boolean first, boolean blank, int line) {
        if (!(v instanceof String s)) {
            if (v instanceof Undefined u) {
                throw u.fail(line);
            }
            throw new TemplateException("TypeError: indent needs a string, got " + Py.typeName(v), line);
        }
        String ind;
        if (width instanceof String w) {
            ind = w;
        } else if (Py.isInt(width)) {
            long w = Py.asLong(width);
            ind = w > 0 ? " ".repeat((int) w) : "";
        } else {
            throw new TemplateException("TypeError: indent width must be int or str", line);
        }
        s = s + "\n";
        String rv;
        List<String> lines = splitlines(s);
        if (blank) {
            rv = String.join("\n" + ind, lines);
        } else {
            StringBuilder sb = new StringBuilder(lines.get(0));
            if (lines.size() > 1) {
                sb.append('\n');
                for (int i = 1; i < lines.size(); i++) {
                    if (i > 1) {
                        sb.append('\n');
                    }
                    String ln = lines.get(i);
                    if (!ln.isEmpty()) {
                        sb.append(ind);
                    }
                    sb.append(ln);
                }
            }
            rv = sb.toString();
        }
        return first ? ind + rv : rv;
    }
}
