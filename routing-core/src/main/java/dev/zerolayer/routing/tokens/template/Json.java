package dev.zerolayer.routing.tokens.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Python's json.dumps as HF's tojson filter calls it (ensure_ascii, indent, separators, sort_keys). */
final class Json {
    private Json() {
    }

    static String dumps(Object v, boolean ensureAscii, Object indent, Object separators, boolean sortKeys, int line) {
        String ind = null;
        if (indent != null) {
            if (indent instanceof String s) {
                ind = s;
            } else if (Py.isInt(indent)) {
                long n = Py.asLong(indent);
                ind = n > 0 ? " ".repeat((int) n) : "";
            } else {
                throw new TemplateException("unsupported: tojson indent of type " + Py.typeName(indent), line);
            }
        }
        String itemSep = ind == null ? ", " : ",";
        String keySep = ": ";
        if (separators != null) {
            List<Object> seps = separators instanceof PyTuple t ? t.items()
                    : separators instanceof List<?> l ? new ArrayList<>(l) : null;
            if (seps == null || seps.size() != 2 || !(seps.get(0) instanceof String)
                    || !(seps.get(1) instanceof String)) {
                throw new TemplateException("unsupported: tojson separators must be two strings", line);
            }
            itemSep = (String) seps.get(0);
            keySep = (String) seps.get(1);
        }
        StringBuilder sb = new StringBuilder();
        new Writer(ensureAscii, ind, itemSep, keySep, sortKeys, line).write(v, sb, 0);
        return sb.toString();
    }

    private record Writer(boolean ascii, String indent, String itemSep, String keySep, boolean sortKeys, int line) {
        void newline(StringBuilder sb, int depth) {
            sb.append('\n');
            for (int i = 0; i < depth; i++) {
                sb.append(indent);
            }
        }

        void write(Object v, StringBuilder sb, int depth) {
            if (v == null) {
                sb.append("null");
            } else if (v instanceof Boolean b) {
                sb.append(b ? "true" : "false");
            } else if (v instanceof Long l) {
                sb.append(l.longValue());
            } else if (v instanceof Double d) {
                if (Double.isNaN(d)) {
                    sb.append("NaN");
                } else if (Double.isInfinite(d)) {
                    sb.append(d > 0 ? "Infinity" : "-Infinity");
                } else {
                    sb.append(Py.floatRepr(d));
                }
            } else if (v instanceof String s) {
                string(s, sb);
            } else if (v instanceof List<?> || v instanceof PyTuple) {
                List<?> l = v instanceof PyTuple t ? t.items() : (List<?>) v;
                if (l.isEmpty()) {
                    sb.append("[]");
                    return;
                }
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        sb.append(itemSep);
                    }
                    if (indent != null) {
                        newline(sb, depth + 1);
                    }
                    write(l.get(i), sb, depth + 1);
                }
                if (indent != null) {
                    newline(sb, depth);
                }
                sb.append(']');
            } else if (v instanceof Map<?, ?> m) {
                if (m.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                List<Map.Entry<?, ?>> entries = new ArrayList<>(m.entrySet());
                if (sortKeys) {
                    for (Map.Entry<?, ?> e : entries) {
                        if (!(e.getKey() instanceof String)) {
                            throw new TemplateException("unsupported: tojson sort_keys with non-string keys", line);
                        }
                    }
                    entries.sort((a, b) -> Py.compareCodePoints((String) a.getKey(), (String) b.getKey()));
                }
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : entries) {
                    if (!first) {
                        sb.append(itemSep);
                    }
                    first = false;
                    if (indent != null) {
                        newline(sb, depth + 1);
                    }
                    Object k = e.getKey();
                    if (k instanceof String s) {
                        string(s, sb);
                    } else if (k == null) {
                        sb.append("\"null\"");
                    } else if (k instanceof Boolean b) {
                        sb.append(b ? "\"true\"" : "\"false\"");
                    } else if (k instanceof Long || k instanceof Double) {
                        sb.append('"');
                        write(k, sb, depth);
                        sb.append('"');
                    } else {
                        throw new TemplateException("TypeError: keys must be str, int, float, bool or None, not "
                                + Py.typeName(k), line);
                    }
                    sb.append(keySep);
                    write(e.getValue(), sb, depth + 1);
                }
                if (indent != null) {
                    newline(sb, depth);
                }
                sb.append('}');
            } else if (v instanceof Markup mk) {
                string(mk.text(), sb);
            } else {
                throw new TemplateException("TypeError: Object of type " + Py.typeName(v).replace("'", "")
                        + " is not JSON serializable", line);
            }
        }

        void string(String s, StringBuilder sb) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    case '\b' -> sb.append("\\b");
                    case '\f' -> sb.append("\\f");
                    default -> {
                        if (c < 0x20 || (ascii && c > 0x7e)) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }
    }
}
