package dev.zerolayer.routing.tokens.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Python value semantics over normalised Java values (Long, Double, String, Boolean, null=None, List, Map, PyTuple, Undefined). */
final class Py {
    private Py() {
    }

    /** Deep copy of caller input into normalised values (insertion-ordered maps, ArrayLists, Long/Double numbers). */
    static Object normalize(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float f) {
            return Double.parseDouble(f.toString());
        }
        if (v instanceof BigInteger b) {
            if (b.bitLength() < 64) {
                return b.longValue();
            }
            throw new TemplateException("unsupported: integer too large " + b, 0);
        }
        if (v instanceof BigDecimal b) {
            return b.doubleValue();
        }
        if (v instanceof CharSequence cs) {
            return cs.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(normalize(e.getKey()), normalize(e.getValue()));
            }
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            for (Object o : c) {
                out.add(normalize(o));
            }
            return out;
        }
        if (v instanceof Object[] arr) {
            List<Object> out = new ArrayList<>(arr.length);
            for (Object o : arr) {
                out.add(normalize(o));
            }
            return out;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw new TemplateException("unsupported context value of type " + v.getClass().getName(), 0);
    }

    static String typeName(Object v) {
        if (v == null) {
            return "'NoneType'";
        }
        if (v instanceof String) {
            return "'str'";
        }
        if (v instanceof Boolean) {
            return "'bool'";
        }
        if (v instanceof Long) {
            return "'int'";
        }
        if (v instanceof Double) {
            return "'float'";
        }
        if (v instanceof List) {
            return "'list'";
        }
        if (v instanceof Map) {
            return "'dict'";
        }
        if (v instanceof PyTuple) {
            return "'tuple'";
        }
        if (v instanceof DictView d) {
            return "'" + d.kind() + "'";
        }
        if (v instanceof PyRange) {
            return "'range'";
        }
        if (v instanceof Undefined) {
            return "'Undefined'";
        }
        return "'" + v.getClass().getSimpleName() + "'";
    }

    static boolean truthy(Object v) {
        if (v == null || v instanceof Undefined) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Long l) {
            return l != 0;
        }
        if (v instanceof Double d) {
            return d != 0.0;
        }
        if (v instanceof List<?> l) {
            return !l.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (v instanceof PyTuple t) {
            return !t.items().isEmpty();
        }
        if (v instanceof DictView d) {
            return !d.items().isEmpty();
        }
        if (v instanceof Markup m) {
            return !m.text().isEmpty();
        }
        if (v instanceof PyRange r) {
            return !r.items().isEmpty();
        }
        return true;
    }

    // ---------------------------------------------------------------- str / repr

    static String str(Object v, int line) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Markup m) {
            return m.text();
        }
        if (v instanceof Undefined) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        repr(v, sb, line);
        return sb.toString();
    }

    static void appendStr(Object v, StringBuilder sb, int line) {
        if (v instanceof String s) {
            sb.append(s);
        } else if (v instanceof Markup m) {
            sb.append(m.text());
        } else if (!(v instanceof Undefined)) {
            repr(v, sb, line);
        }
    }

    static void repr(Object v, StringBuilder sb, int line) {
        if (v == null) {
            sb.append("None");
        } else if (v instanceof Boolean b) {
            sb.append(b ? "True" : "False");
        } else if (v instanceof Long l) {
            sb.append(l.longValue());
        } else if (v instanceof Double d) {
            sb.append(floatRepr(d));
        } else if (v instanceof String s) {
            strRepr(s, sb);
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                repr(l.get(i), sb, line);
            }
            sb.append(']');
        } else if (v instanceof PyTuple t) {
            sb.append('(');
            List<Object> l = t.items();
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                repr(l.get(i), sb, line);
            }
            if (l.size() == 1) {
                sb.append(',');
            }
            sb.append(')');
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                repr(e.getKey(), sb, line);
                sb.append(": ");
                repr(e.getValue(), sb, line);
            }
            sb.append('}');
        } else if (v instanceof PyRange r) {
            sb.append(r.repr());
        } else if (v instanceof DictView d) {
            sb.append(d.kind()).append('(');
            repr(d.items(), sb, line);
            sb.append(')');
        } else if (v instanceof Undefined) {
            sb.append("Undefined");
        } else {
            throw new TemplateException("unsupported: printing a " + typeName(v) + " value", line);
        }
    }

    static void strRepr(String s, StringBuilder sb) {
        char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        sb.append(q);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == q || cp == '\\') {
                sb.append('\\').appendCodePoint(cp);
            } else if (cp == '\n') {
                sb.append("\\n");
            } else if (cp == '\r') {
                sb.append("\\r");
            } else if (cp == '\t') {
                sb.append("\\t");
            } else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && !printable(cp))) {
                if (cp <= 0xff) {
                    sb.append(String.format("\\x%02x", cp));
                } else if (cp <= 0xffff) {
                    sb.append(String.format("\\u%04x", cp));
                } else {
                    sb.append(String.format("\\U%08x", cp));
                }
            } else {
                sb.appendCodePoint(cp);
            }
        }
        sb.append(q);
    }

    private static boolean printable(int cp) {
        int t = Character.getType(cp);
        return !(t == Character.CONTROL || t == Character.FORMAT || t == Character.SURROGATE
                || t == Character.PRIVATE_USE || t == Character.UNASSIGNED || t == Character.LINE_SEPARATOR
                || t == Character.PARAGRAPH_SEPARATOR || t == Character.SPACE_SEPARATOR);
    }

    /** Python's repr(float): shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
    static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal bd = shortest(Math.abs(d));
        String digits = bd.unscaledValue().toString();
        int exp = digits.length() - 1 - bd.scale(); // decimal exponent of first digit
        StringBuilder sb = new StringBuilder();
        if (d < 0) {
            sb.append('-');
        }
        if (exp < -4 || exp >= 16) {
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            sb.append('e').append(exp < 0 ? '-' : '+');
            int a = Math.abs(exp);
            if (a < 10) {
                sb.append('0');
            }
            sb.append(a);
        } else if (exp < 0) {
            sb.append("0.");
            for (int i = -1; i > exp; i--) {
                sb.append('0');
            }
            sb.append(digits);
        } else if (digits.length() <= exp + 1) {
            sb.append(digits);
            for (int i = digits.length(); i <= exp; i++) {
                sb.append('0');
            }
            sb.append(".0");
        } else {
            sb.append(digits, 0, exp + 1).append('.').append(digits, exp + 1, digits.length());
        }
        return sb.toString();
    }

    /** The shortest decimal that reads back as d (the closest one of that length), as Python's repr picks. */
    private static BigDecimal shortest(double d) {
        // Not Double.toString: JDK 17's is sometimes one digit longer than the shortest (4.9E-324 for 5e-324).
        BigDecimal exact = new BigDecimal(d);
        for (int p = 1; p < 17; p++) {
            BigDecimal r = exact.round(new java.math.MathContext(p, java.math.RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) {
                return r.stripTrailingZeros();
            }
        }
        return exact.round(new java.math.MathContext(17, java.math.RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    // ---------------------------------------------------------------- equality and ordering

    static boolean isNumber(Object v) {
        return v instanceof Long || v instanceof Double || v instanceof Boolean;
    }

    static boolean isInt(Object v) {
        return v instanceof Long || v instanceof Boolean;
    }

    static long asLong(Object v) {
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return (Long) v;
    }

    static double asDouble(Object v) {
        if (v instanceof Double d) {
            return d;
        }
        return asLong(v);
    }

    static boolean eq(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (isNumber(a) && isNumber(b)) {
            if (isInt(a) && isInt(b)) {
                return asLong(a) == asLong(b);
            }
            return asDouble(a) == asDouble(b);
        }
        if (a instanceof String s) {
            return s.equals(b);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            return seqEq(x, y);
        }
        if (a instanceof PyTuple x && b instanceof PyTuple y) {
            return seqEq(x.items(), y.items());
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !eq(e.getValue(), y.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Undefined && b instanceof Undefined) {
            return true;
        }
        if (a instanceof PyRange x && b instanceof PyRange y) {
            return seqEq(x.items(), y.items());
        }
        return false;
    }

    private static boolean seqEq(List<?> x, List<?> y) {
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!eq(x.get(i), y.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Python's ordering (<0, 0, >0) for numbers, strings (by code point) and sequences; TypeError otherwise. */
    static int compare(Object a, Object b, String op, int line) {
        if (isNumber(a) && isNumber(b)) {
            if (isInt(a) && isInt(b)) {
                return Long.compare(asLong(a), asLong(b));
            }
            double x = asDouble(a);
            double y = asDouble(b);
            if (Double.isNaN(x) || Double.isNaN(y)) {
                throw new TemplateException("unsupported: comparison with nan", line);
            }
            return x < y ? -1 : x > y ? 1 : 0; // not Double.compare: -0.0 == 0.0 in Python
        }
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if ((a instanceof List<?> || a instanceof PyTuple) && a.getClass() == b.getClass()) {
            List<?> x = a instanceof PyTuple t ? t.items() : (List<?>) a;
            List<?> y = b instanceof PyTuple t ? t.items() : (List<?>) b;
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                if (!eq(x.get(i), y.get(i))) {
                    return compare(x.get(i), y.get(i), op, line);
                }
            }
            return Integer.compare(x.size(), y.size());
        }
        if (a instanceof Undefined u) {
            throw u.fail(line);
        }
        if (b instanceof Undefined u) {
            throw u.fail(line);
        }
        throw new TemplateException("TypeError: '" + op + "' not supported between instances of " + typeName(a)
                + " and " + typeName(b), line);
    }

    static int compareCodePoints(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int a = x.codePointAt(i);
            int b = y.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Integer.compare(x.length() - i, y.length() - j);
    }

    static boolean contains(Object container, Object item, int line) {
        if (container instanceof String s) {
            if (!(item instanceof String t)) {
                if (item instanceof Undefined u) {
                    throw u.fail(line);
                }
                throw new TemplateException("TypeError: 'in <string>' requires string as left operand, not "
                        + typeName(item), line);
            }
            return s.contains(t);
        }
        if (container instanceof Map<?, ?> m) {
            return mapGet(m, item) != MISSING;
        }
        if (container instanceof Undefined) {
            return false;
        }
        if (container instanceof PyIter it) {
            for (Object o = it.next(); o != MISSING; o = it.next()) {
                if (eq(o, item)) {
                    return true;
                }
            }
            return false;
        }
        for (Object o : iterate(container, line)) {
            if (eq(o, item)) {
                return true;
            }
        }
        return false;
    }

    static final Object MISSING = new Object();

    static Object mapGet(Map<?, ?> m, Object key) {
        Object k = key;
        if (key instanceof Boolean b) {
            k = b ? 1L : 0L;
        } else if (key instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
            k = (long) d.doubleValue();
        } else if (key instanceof List<?> || key instanceof Map<?, ?>) {
            throw new TemplateException("TypeError: unhashable type: " + typeName(key), 0);
        }
        Object v = m.get(k);
        if (v == null && !m.containsKey(k)) {
            if (k instanceof Long l && l >= 0 && l <= 1) {
                Object bk = l == 1L;
                if (m.containsKey(bk)) {
                    return m.get(bk);
                }
            }
            return MISSING;
        }
        return v;
    }

    // ---------------------------------------------------------------- iteration, length, indexing

    static boolean hasSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    static int strLen(String s) {
        return s.codePointCount(0, s.length());
    }

    @SuppressWarnings("unchecked")
    static List<Object> iterate(Object v, int line) {
        if (v instanceof List<?> l) {
            return (List<Object>) l;
        }
        if (v instanceof PyTuple t) {
            return t.items();
        }
        if (v instanceof DictView d) {
            return d.items();
        }
        if (v instanceof PyIter it) {
            return it.drain();
        }
        if (v instanceof PyRange r) {
            return r.items();
        }
        if (v instanceof Map<?, ?> m) {
            return new ArrayList<>(m.keySet());
        }
        if (v instanceof String s) {
            List<Object> out = new ArrayList<>(s.length());
            s.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
            return out;
        }
        if (v instanceof Undefined) {
            return List.of();
        }
        throw new TemplateException("TypeError: " + typeName(v) + " object is not iterable", line);
    }

    static long length(Object v, int line) {
        if (v instanceof String s) {
            return strLen(s);
        }
        if (v instanceof List<?> l) {
            return l.size();
        }
        if (v instanceof Map<?, ?> m) {
            return m.size();
        }
        if (v instanceof PyTuple t) {
            return t.items().size();
        }
        if (v instanceof DictView d) {
            return d.items().size();
        }
        if (v instanceof Markup m) {
            return strLen(m.text());
        }
        if (v instanceof PyRange r) {
            return r.items().size();
        }
        if (v instanceof Undefined) {
            return 0;
        }
        throw new TemplateException("TypeError: object of type " + typeName(v) + " has no len()", line);
    }

    /** Jinja2's environment.getitem: obj[key] first, then the attribute for string keys, else undefined. */
    static Object getItem(Object obj, Object key, int line) {
        if (obj instanceof Undefined u) {
            throw u.fail(line);
        }
        if (obj instanceof Markup) {
            throw new TemplateException("unsupported: subscript of a Markup (safe/escape) value", line);
        }
        if (obj instanceof Map<?, ?> m) {
            Object v = key instanceof Undefined ? MISSING : mapGet(m, key);
            if (v != MISSING) {
                return v;
            }
        } else if (obj instanceof List<?> || obj instanceof PyTuple || obj instanceof String || obj instanceof PyRange) {
            if (isInt(key)) {
                long i = asLong(key);
                if (obj instanceof String s) {
                    if (!hasSurrogates(s)) {
                        int n = s.length();
                        long j = i < 0 ? i + n : i;
                        if (j >= 0 && j < n) {
                            return String.valueOf(s.charAt((int) j));
                        }
                    } else {
                        int[] cps = s.codePoints().toArray();
                        long j = i < 0 ? i + cps.length : i;
                        if (j >= 0 && j < cps.length) {
                            return new String(Character.toChars(cps[(int) j]));
                        }
                    }
                } else {
                    List<?> l = obj instanceof PyTuple t ? t.items()
                            : obj instanceof PyRange r ? r.items() : (List<?>) obj;
                    long j = i < 0 ? i + l.size() : i;
                    if (j >= 0 && j < l.size()) {
                        return l.get((int) j);
                    }
                }
            }
        }
        if (key instanceof String s) {
            return getAttrOnly(obj, s, line);
        }
        return new Undefined(typeName(obj) + " object has no element " + str(key, line));
    }

    /** Jinja2's environment.getattr: the attribute (a method) first, then obj[name], else undefined. */
    static Object getAttr(Object obj, String name, int line) {
        if (obj instanceof Undefined u) {
            throw u.fail(line);
        }
        if (obj instanceof Map<?, ?> m) {
            Object method = Methods.lookup(obj, name);
            if (method != null) {
                return method;
            }
            Object v = mapGet(m, name);
            return v == MISSING ? Undefined.attribute(obj, name) : v;
        }
        if (obj instanceof Namespace ns) {
            Object v = ns.attrs.get(name);
            return v == null && !ns.attrs.containsKey(name) ? Undefined.attribute(obj, name) : v;
        }
        if (obj instanceof LoopInfo loop) {
            return loop.attribute(name);
        }
        return getAttrOnly(obj, name, line);
    }

    private static Object getAttrOnly(Object obj, String name, int line) {
        if (obj instanceof Namespace || obj instanceof LoopInfo) {
            return getAttr(obj, name, line);
        }
        Object method = Methods.lookup(obj, name);
        return method != null ? method : Undefined.attribute(obj, name);
    }

    /** Python slicing obj[start:stop:step] on strings, lists and tuples. */
    static Object slice(Object obj, Object start, Object stop, Object step, int line) {
        if (obj instanceof Undefined u) {
            throw u.fail(line);
        }
        if (obj instanceof PyRange || obj instanceof DictView || obj instanceof PyIter || obj instanceof Markup) {
            throw new TemplateException("unsupported: slicing a " + typeName(obj) + " value", line);
        }
        long st = step == null ? 1 : sliceIndex(step, line);
        if (st == 0) {
            throw new TemplateException("ValueError: slice step cannot be zero", line);
        }
        if (obj instanceof String s) {
            int[] cps = s.codePoints().toArray();
            int[] idx = sliceIndices(cps.length, start, stop, st, line);
            StringBuilder sb = new StringBuilder();
            for (int i = idx[0]; st > 0 ? i < idx[1] : i > idx[1]; i += st) {
                sb.appendCodePoint(cps[i]);
            }
            return sb.toString();
        }
        if (obj instanceof List<?> || obj instanceof PyTuple) {
            List<?> l = obj instanceof PyTuple t ? t.items() : (List<?>) obj;
            int[] idx = sliceIndices(l.size(), start, stop, st, line);
            List<Object> out = new ArrayList<>();
            for (int i = idx[0]; st > 0 ? i < idx[1] : i > idx[1]; i += st) {
                out.add(l.get(i));
            }
            return obj instanceof PyTuple ? new PyTuple(out) : out;
        }
        // Jinja2 compiles slices to plain Python slicing (not environment.getitem): anything else raises.
        throw new TemplateException("TypeError: " + typeName(obj) + " object is not subscriptable (by a slice)", line);
    }

    private static long sliceIndex(Object v, int line) {
        if (isInt(v)) {
            return asLong(v);
        }
        throw new TemplateException("TypeError: slice indices must be integers or None", line);
    }

    private static int[] sliceIndices(int len, Object startV, Object stopV, long step, int line) {
        long start;
        long stop;
        if (step > 0) {
            start = startV == null ? 0 : clamp(sliceIndex(startV, line), len, 0, len);
            stop = stopV == null ? len : clamp(sliceIndex(stopV, line), len, 0, len);
        } else {
            start = startV == null ? len - 1 : clamp(sliceIndex(startV, line), len, -1, len - 1);
            stop = stopV == null ? -1 : clamp(sliceIndex(stopV, line), len, -1, len - 1);
        }
        return new int[] {(int) start, (int) stop};
    }

    private static long clamp(long i, int len, long lo, long hi) {
        if (i < 0) {
            i += len;
            if (i < 0) {
                return lo;
            }
        }
        return Math.min(i, hi);
    }

    // ---------------------------------------------------------------- arithmetic

    static Object binary(String op, Object a, Object b, int line) {
        if (a instanceof Undefined u) {
            throw u.fail(line);
        }
        if (b instanceof Undefined u) {
            throw u.fail(line);
        }
        if (isNumber(a) && isNumber(b)) {
            return numeric(op, a, b, line);
        }
        if (op.equals("%") && (a instanceof String || a instanceof Markup)) {
            throw new TemplateException("unsupported: printf-style string formatting with %", line);
        }
        switch (op) {
            case "+" -> {
                if (a instanceof String x && b instanceof String y) {
                    return x + y;
                }
                if (a instanceof List<?> x && b instanceof List<?> y) {
                    List<Object> out = new ArrayList<>(x);
                    out.addAll(y);
                    return out;
                }
                if (a instanceof PyTuple x && b instanceof PyTuple y) {
                    List<Object> out = new ArrayList<>(x.items());
                    out.addAll(y.items());
                    return new PyTuple(out);
                }
            }
            case "*" -> {
                if ((a instanceof String || a instanceof List<?>) && isInt(b)) {
                    return repeat(a, asLong(b), line);
                }
                if ((b instanceof String || b instanceof List<?>) && isInt(a)) {
                    return repeat(b, asLong(a), line);
                }
            }
            default -> {
            }
        }
        throw new TemplateException("TypeError: unsupported operand type(s) for " + op + ": " + typeName(a)
                + " and " + typeName(b), line);
    }

    private static Object repeat(Object seq, long n, int line) {
        if (n > 100_000) {
            throw new TemplateException("unsupported: repetition count too large", line);
        }
        if (seq instanceof String s) {
            return n <= 0 ? "" : s.repeat((int) n);
        }
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.addAll((List<?>) seq);
        }
        return out;
    }

    private static Object numeric(String op, Object a, Object b, int line) {
        boolean ints = isInt(a) && isInt(b);
        try {
            switch (op) {
                case "+":
                    return ints ? (Object) Math.addExact(asLong(a), asLong(b)) : asDouble(a) + asDouble(b);
                case "-":
                    return ints ? (Object) Math.subtractExact(asLong(a), asLong(b)) : asDouble(a) - asDouble(b);
                case "*":
                    return ints ? (Object) Math.multiplyExact(asLong(a), asLong(b)) : asDouble(a) * asDouble(b);
                case "/": {
                    double y = asDouble(b);
                    if (y == 0) {
                        throw new TemplateException("ZeroDivisionError: division by zero", line);
                    }
                    if (ints) {
                        long x = asLong(a);
                        long d = asLong(b);
                        if (Math.abs(x) < (1L << 53) && Math.abs(d) < (1L << 53)) {
                            return (double) x / (double) d;
                        }
                        throw new TemplateException("unsupported: huge integer division", line);
                    }
                    return asDouble(a) / y;
                }
                case "//": {
                    if (asDouble(b) == 0) {
                        throw new TemplateException("ZeroDivisionError: integer division or modulo by zero", line);
                    }
                    if (ints) {
                        return Math.floorDiv(asLong(a), asLong(b));
                    }
                    return Math.floor(asDouble(a) / asDouble(b));
                }
                case "%": {
                    if (asDouble(b) == 0) {
                        throw new TemplateException("ZeroDivisionError: integer division or modulo by zero", line);
                    }
                    if (ints) {
                        return Math.floorMod(asLong(a), asLong(b));
                    }
                    double x = asDouble(a);
                    double y = asDouble(b);
                    double m = x % y;
                    if (m != 0 && ((m < 0) != (y < 0))) {
                        m += y;
                    }
                    return m;
                }
                case "**": {
                    if (ints && asLong(b) >= 0) {
                        long base = asLong(a);
                        long e = asLong(b);
                        long r = 1;
                        for (long i = 0; i < e; i++) {
                            r = Math.multiplyExact(r, base);
                        }
                        return r;
                    }
                    double x = asDouble(a);
                    double y = asDouble(b);
                    if (x == 0 && y < 0) {
                        throw new TemplateException("ZeroDivisionError: 0.0 cannot be raised to a negative power", line);
                    }
                    if (x < 0 && y != Math.rint(y)) {
                        throw new TemplateException("unsupported: complex power", line);
                    }
                    return Math.pow(x, y);
                }
                default:
                    throw new TemplateException("unsupported operator " + op, line);
            }
        } catch (ArithmeticException e) {
            throw new TemplateException("unsupported: integer overflow (Python ints are unbounded)", line);
        }
    }

    static Object negate(Object v, int line) {
        if (v instanceof Double d) {
            return -d;
        }
        if (isInt(v)) {
            long l = asLong(v);
            if (l == Long.MIN_VALUE) {
                throw new TemplateException("unsupported: integer overflow", line);
            }
            return -l;
        }
        if (v instanceof Undefined u) {
            throw u.fail(line);
        }
        throw new TemplateException("TypeError: bad operand type for unary -: " + typeName(v), line);
    }
}
