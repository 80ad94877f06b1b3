package dev.zerolayer.routing.tokens.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Python methods of str, dict and list as the immutable sandbox exposes them (mutating ones are undefined). */
final class Methods {
    private static final Set<String> STR_OTHER = Set.of("casefold", "center", "encode", "expandtabs", "format",
            "format_map", "index", "isascii", "isdecimal", "isidentifier", "isnumeric", "isprintable", "istitle",
            "ljust", "maketrans", "partition", "rindex", "rjust", "rpartition", "splitlines", "swapcase",
            "translate", "zfill");
    private static final Set<String> LIST_UNSAFE = Set.of("append", "clear", "extend", "insert", "pop", "remove",
            "reverse", "sort");
    private static final Set<String> DICT_UNSAFE = Set.of("clear", "pop", "popitem", "setdefault", "update");

    private Methods() {
    }

    /** The bound method obj.name, an Undefined for sandbox-unsafe methods, or null when obj has no such attribute. */
    static Object lookup(Object obj, String name) {
        if (obj instanceof String s) {
            if (STR_OTHER.contains(name)) {
                return unsupported("str." + name);
            }
            return switch (name) {
                case "startswith", "endswith", "strip", "lstrip", "rstrip", "split", "rsplit", "upper", "lower",
                        "title", "capitalize", "replace", "find", "rfind", "count", "join", "isdigit", "isalpha",
                        "isalnum", "isspace", "isupper", "islower", "removeprefix", "removesuffix" ->
                        (PyCallable) (args, kw, line) -> str(s, name, args, kw, line);
                default -> null;
            };
        }
        if (obj instanceof Map<?, ?> m) {
            if (DICT_UNSAFE.contains(name)) {
                return new Undefined("access to attribute '" + name + "' of 'dict' object is unsafe.");
            }
            return switch (name) {
                case "items", "keys", "values", "get" -> (PyCallable) (args, kw, line) -> dict(m, name, args, kw, line);
                case "copy", "fromkeys" -> unsupported("dict." + name);
                default -> null;
            };
        }
        if (obj instanceof List<?> l) {
            if (LIST_UNSAFE.contains(name)) {
                return new Undefined("access to attribute '" + name + "' of 'list' object is unsafe.");
            }
            return switch (name) {
                case "count" -> (PyCallable) (args, kw, line) -> {
                    arity("list.count", args, kw, 1, 1, line);
                    long c = 0;
                    for (Object o : l) {
                        if (Py.eq(o, args.get(0))) {
                            c++;
                        }
                    }
                    return c;
                };
                case "index", "copy" -> unsupported("list." + name);
                default -> null;
            };
        }
        return null;
    }

    private static PyCallable unsupported(String what) {
        return (args, kw, line) -> {
            throw new TemplateException("unsupported method " + what, line);
        };
    }

    static void arity(String what, List<Object> args, Map<String, Object> kw, int min, int max, int line) {
        if (!kw.isEmpty()) {
            throw new TemplateException("unsupported: keyword arguments to " + what, line);
        }
        if (args.size() < min || args.size() > max) {
            throw new TemplateException("TypeError: " + what + " takes " + min + ".." + max + " arguments ("
                    + args.size() + " given)", line);
        }
    }

    private static String strArg(String what, Object v, int line) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Undefined u) {
            throw u.fail(line);
        }
        throw new TemplateException("TypeError: " + what + " argument must be str, not " + Py.typeName(v), line);
    }

    private static Object dict(Map<?, ?> m, String name, List<Object> args, Map<String, Object> kw, int line) {
        switch (name) {
            case "items": {
                arity("dict.items", args, kw, 0, 0, line);
                List<Object> out = new ArrayList<>(m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    out.add(new PyTuple(java.util.Arrays.asList(e.getKey(), e.getValue())));
                }
                return new DictView("dict_items", out);
            }
            case "keys":
                arity("dict.keys", args, kw, 0, 0, line);
                return new DictView("dict_keys", new ArrayList<>(m.keySet()));
            case "values":
                arity("dict.values", args, kw, 0, 0, line);
                return new DictView("dict_values", new ArrayList<>(m.values()));
            default: {
                arity("dict.get", args, kw, 1, 2, line);
                Object v = Py.mapGet(m, args.get(0));
                return v != Py.MISSING ? v : args.size() > 1 ? args.get(1) : null;
            }
        }
    }

    static Object str(String s, String name, List<Object> args, Map<String, Object> kw, int line) {
        String what = "str." + name;
        switch (name) {
            case "startswith":
            case "endswith": {
                arity(what, args, kw, 1, 1, line);
                Object a = args.get(0);
                List<Object> options = a instanceof PyTuple t ? t.items() : List.of(a);
                for (Object o : options) {
                    if (!(o instanceof String p)) {
                        throw new TemplateException("TypeError: " + what + " first arg must be str or a tuple of str, not "
                                + Py.typeName(o), line);
                    }
                    if (name.equals("startswith") ? s.startsWith(p) : s.endsWith(p)) {
                        return true;
                    }
                }
                return false;
            }
            case "strip":
            case "lstrip":
            case "rstrip": {
                arity(what, args, kw, 0, 1, line);
                String chars = args.isEmpty() || args.get(0) == null ? null : strArg(what, args.get(0), line);
                return strip(s, chars, !name.equals("rstrip"), !name.equals("lstrip"));
            }
            case "split":
            case "rsplit": {
                Object sep = null;
                long max = -1;
                if (!args.isEmpty()) {
                    sep = args.get(0);
                }
                if (args.size() > 1) {
                    max = asIndex(args.get(1), line);
                }
                if (args.size() > 2) {
                    throw new TemplateException("TypeError: too many arguments to " + what, line);
                }
                for (Map.Entry<String, Object> e : kw.entrySet()) {
                    if (e.getKey().equals("sep")) {
                        sep = e.getValue();
                    } else if (e.getKey().equals("maxsplit")) {
                        max = asIndex(e.getValue(), line);
                    } else {
                        throw new TemplateException("TypeError: unexpected keyword " + e.getKey(), line);
                    }
                }
                if (sep == null) {
                    return name.equals("split") ? splitWhitespace(s, max) : rsplitWhitespace(s, max);
                }
                String p = strArg(what, sep, line);
                if (p.isEmpty()) {
                    throw new TemplateException("ValueError: empty separator", line);
                }
                return name.equals("split") ? split(s, p, max) : rsplit(s, p, max);
            }
            case "upper":
                arity(what, args, kw, 0, 0, line);
                return s.toUpperCase(Locale.ROOT);
            case "lower":
                arity(what, args, kw, 0, 0, line);
                return s.toLowerCase(Locale.ROOT);
            case "title":
                arity(what, args, kw, 0, 0, line);
                return title(s);
            case "capitalize":
                arity(what, args, kw, 0, 0, line);
                return capitalize(s);
            case "replace": {
                arity(what, args, kw, 2, 3, line);
                String old = strArg(what, args.get(0), line);
                String rep = strArg(what, args.get(1), line);
                long count = args.size() > 2 ? asIndex(args.get(2), line) : -1;
                return replace(s, old, rep, count);
            }
            case "find":
            case "rfind": {
                arity(what, args, kw, 1, 1, line);
                String sub = strArg(what, args.get(0), line);
                int i = name.equals("find") ? s.indexOf(sub) : s.lastIndexOf(sub);
                return i < 0 ? -1L : (long) s.codePointCount(0, i);
            }
            case "count": {
                arity(what, args, kw, 1, 1, line);
                String sub = strArg(what, args.get(0), line);
                if (sub.isEmpty()) {
                    return (long) Py.strLen(s) + 1;
                }
                long c = 0;
                for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) {
                    c++;
                }
                return c;
            }
            case "join": {
                arity(what, args, kw, 1, 1, line);
                StringBuilder sb = new StringBuilder();
                boolean first = true;
                for (Object o : Py.iterate(args.get(0), line)) {
                    if (!first) {
                        sb.append(s);
                    }
                    first = false;
                    if (!(o instanceof String)) {
                        throw new TemplateException("TypeError: sequence item: expected str instance, "
                                + Py.typeName(o) + " found", line);
                    }
                    sb.append((String) o);
                }
                return sb.toString();
            }
            case "removeprefix":
            case "removesuffix": {
                arity(what, args, kw, 1, 1, line);
                String a = strArg(what, args.get(0), line);
                if (name.equals("removeprefix")) {
                    return s.startsWith(a) ? s.substring(a.length()) : s;
                }
                return s.endsWith(a) && !a.isEmpty() ? s.substring(0, s.length() - a.length()) : s;
            }
            default: {
                arity(what, args, kw, 0, 0, line);
                return classify(s, name);
            }
        }
    }

    private static long asIndex(Object v, int line) {
        if (Py.isInt(v)) {
            return Py.asLong(v);
        }
        throw new TemplateException("TypeError: an integer is required, not " + Py.typeName(v), line);
    }

    private static boolean classify(String s, String name) {
        if (s.isEmpty()) {
            return false;
        }
        boolean anyCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (name) {
                case "isdigit" -> {
                    if (Character.getType(cp) != Character.DECIMAL_DIGIT_NUMBER && !isOtherDigit(cp)) {
                        return false;
                    }
                }
                case "isalpha" -> {
                    if (!Character.isLetter(cp)) {
                        return false;
                    }
                }
                case "isalnum" -> {
                    if (!Character.isLetterOrDigit(cp)) {
                        return false;
                    }
                }
                case "isspace" -> {
                    if (cp > 0xffff || !Lexer.isSpace((char) cp)) {
                        return false;
                    }
                }
                case "isupper" -> {
                    if (Character.isLowerCase(cp) || Character.isTitleCase(cp)) {
                        return false;
                    }
                    anyCased |= Character.isUpperCase(cp);
                }
                default -> { // islower
                    if (Character.isUpperCase(cp) || Character.isTitleCase(cp)) {
                        return false;
                    }
                    anyCased |= Character.isLowerCase(cp);
                }
            }
        }
        return name.equals("isupper") || name.equals("islower") ? anyCased : true;
    }

    private static boolean isOtherDigit(int cp) {
        return (cp >= 0x00b2 && cp <= 0x00b3) || cp == 0x00b9 || (cp >= 0x2070 && cp <= 0x2079 && cp != 0x2071
                && cp != 0x2072 && cp != 0x2073) || (cp >= 0x2080 && cp <= 0x2089) || (cp >= 0x2460 && cp <= 0x2468);
    }

    static String strip(String s, String chars, boolean left, boolean right) {
        int b = 0;
        int e = s.length();
        if (chars == null) {
            while (left && b < e && Lexer.isSpace(s.charAt(b))) {
                b++;
            }
            while (right && e > b && Lexer.isSpace(s.charAt(e - 1))) {
                e--;
            }
        } else {
            while (left && b < e) {
                int cp = s.codePointAt(b);
                if (chars.indexOf(cp) < 0) {
                    break;
                }
                b += Character.charCount(cp);
            }
            while (right && e > b) {
                int cp = s.codePointBefore(e);
                if (chars.indexOf(cp) < 0) {
                    break;
                }
                e -= Character.charCount(cp);
            }
        }
        return s.substring(b, e);
    }

    static List<Object> split(String s, String sep, long max) {
        List<Object> out = new ArrayList<>();
        int from = 0;
        while (max < 0 || out.size() < max) {
            int i = s.indexOf(sep, from);
            if (i < 0) {
                break;
            }
            out.add(s.substring(from, i));
            from = i + sep.length();
        }
        out.add(s.substring(from));
        return out;
    }

    static List<Object> rsplit(String s, String sep, long max) {
        List<Object> out = new ArrayList<>();
        int end = s.length();
        while (max < 0 || out.size() < max) {
            int i = s.lastIndexOf(sep, end - sep.length());
            if (i < 0 || end - sep.length() < 0) {
                break;
            }
            out.add(0, s.substring(i + sep.length(), end));
            end = i;
        }
        out.add(0, s.substring(0, end));
        return out;
    }

    static List<Object> splitWhitespace(String s, long max) {
        List<Object> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (true) {
            while (i < n && Lexer.isSpace(s.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            if (max >= 0 && out.size() >= max) {
                out.add(s.substring(i));
                break;
            }
            int j = i;
            while (j < n && !Lexer.isSpace(s.charAt(j))) {
                j++;
            }
            out.add(s.substring(i, j));
            i = j;
        }
        return out;
    }

    static List<Object> rsplitWhitespace(String s, long max) {
        List<Object> out = new ArrayList<>();
        int e = s.length();
        while (true) {
            while (e > 0 && Lexer.isSpace(s.charAt(e - 1))) {
                e--;
            }
            if (e <= 0) {
                break;
            }
            if (max >= 0 && out.size() >= max) {
                out.add(0, s.substring(0, e));
                break;
            }
            int b = e;
            while (b > 0 && !Lexer.isSpace(s.charAt(b - 1))) {
                b--;
            }
            out.add(0, s.substring(b, e));
            e = b;
        }
        return out;
    }

    static String replace(String s, String old, String rep, long count) {
        if (count < 0) {
            return s.replace(old, rep);
        }
        StringBuilder sb = new StringBuilder();
        int from = 0;
        long done = 0;
        if (old.isEmpty()) {
            int i = 0;
            while (i <= s.length() && done < count) {
                sb.append(rep);
                done++;
                if (i < s.length()) {
                    int cp = s.codePointAt(i);
                    sb.appendCodePoint(cp);
                    i += Character.charCount(cp);
                } else {
                    i++;
                }
            }
            if (i <= s.length()) {
                sb.append(s, Math.min(i, s.length()), s.length());
            }
            return sb.toString();
        }
        while (done < count) {
            int i = s.indexOf(old, from);
            if (i < 0) {
                break;
            }
            sb.append(s, from, i).append(rep);
            from = i + old.length();
            done++;
        }
        return sb.append(s, from, s.length()).toString();
    }

    static String title(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean prevCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isUpperCase(cp) || Character.isTitleCase(cp)) {
                sb.appendCodePoint(prevCased ? Character.toLowerCase(cp) : cp);
                prevCased = true;
            } else if (Character.isLowerCase(cp)) {
                sb.appendCodePoint(prevCased ? cp : Character.toTitleCase(cp));
                prevCased = true;
            } else {
                sb.appendCodePoint(cp);
                prevCased = false;
            }
        }
        return sb.toString();
    }

    static String capitalize(String s) {
        if (s.isEmpty()) {
            return s;
        }
        int cp = s.codePointAt(0);
        int n = Character.charCount(cp);
        return new StringBuilder().appendCodePoint(Character.toTitleCase(cp))
                .append(s.substring(n).toLowerCase(Locale.ROOT)).toString();
    }
}
