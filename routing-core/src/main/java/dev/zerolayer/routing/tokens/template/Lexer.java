package dev.zerolayer.routing.tokens.template;

import dev.zerolayer.routing.tokens.template.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/** Splits template source into tokens exactly as Jinja2's lexer does with trim_blocks and lstrip_blocks on. */
final class Lexer {
    private static final String[] OPERATORS = {
        "//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}",
        ">", "<", "=", ".", ":", "|", ",", ";"};

    private final String src;
    private final List<Token> out = new ArrayList<>();
    private int pos;
    private int line = 1;
    private boolean lineStarting = true;

    private Lexer(String src) {
        this.src = src;
    }

    static List<Token> tokenize(String source) {
        String s = source.replace("\r\n", "\n").replace('\r', '\n');
        if (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1); // keep_trailing_newline=False
        }
        Lexer lx = new Lexer(s);
        lx.run();
        return lx.out;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b
                || (c >= 0x1c && c <= 0x1f) || c == 0x85 || c == 0xa0 || c == 0x1680
                || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f
                || c == 0x205f || c == 0x3000;
    }

    private static String rstrip(String s) {
        int e = s.length();
        while (e > 0 && isSpace(s.charAt(e - 1))) {
            e--;
        }
        return s.substring(0, e);
    }

    private void run() {
        int n = src.length();
        while (pos < n) {
            int idx = findTag(pos);
            if (idx < 0) {
                emitData(src.substring(pos), line);
                break;
            }
            String text = src.substring(pos, idx);
            char type = src.charAt(idx + 1);
            int after = idx + 2;
            char sign = after < n && (src.charAt(after) == '-' || src.charAt(after) == '+') ? src.charAt(after) : 0;
            int rawEnd = type == '%' ? matchRawBegin(idx) : -1;
            text = applyStrip(text, sign, type != '{');
            int textLine = line;
            emitData(text, textLine);
            line += count(src, pos, idx);
            if (rawEnd >= 0) {
                lineStarting = src.charAt(rawEnd - 1) == '\n';
                line += count(src, idx, rawEnd);
                pos = rawEnd;
                lexRawBody();
                continue;
            }
            pos = after + (sign != 0 ? 1 : 0);
            lineStarting = false;
            if (type == '#') {
                lexComment();
            } else if (type == '%') {
                out.add(new Token(Kind.BLOCK_BEGIN, "{%", line));
                lexInside(true);
            } else {
                out.add(new Token(Kind.VAR_BEGIN, "{{", line));
                lexInside(false);
            }
        }
        out.add(new Token(Kind.EOF, "", line));
    }

    private String applyStrip(String text, char sign, boolean lstripKind) {
        if (sign == '-') {
            return rstrip(text);
        }
        if (sign != '+' && lstripKind) {
            int lpos = text.lastIndexOf('\n') + 1;
            if ((lpos > 0 || lineStarting) && lpos < text.length()) {
                boolean allSpace = true;
                for (int i = lpos; i < text.length(); i++) {
                    if (!isSpace(text.charAt(i))) {
                        allSpace = false;
                        break;
                    }
                }
                if (allSpace) {
                    return text.substring(0, lpos);
                }
            }
        }
        return text;
    }

    private void emitData(String text, int l) {
        if (!text.isEmpty()) {
            out.add(new Token(Kind.DATA, text, l));
        }
    }

    private static int count(String s, int from, int to) {
        int c = 0;
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == '\n') {
                c++;
            }
        }
        return c;
    }

    private int findTag(int from) {
        int i = src.indexOf('{', from);
        while (i >= 0 && i + 1 < src.length()) {
            char c = src.charAt(i + 1);
            if (c == '{' || c == '%' || c == '#') {
                return i;
            }
            i = src.indexOf('{', i + 1);
        }
        return -1;
    }

    private int skipSpace(int p) {
        while (p < src.length() && isSpace(src.charAt(p))) {
            p++;
        }
        return p;
    }

    /** The end of a `{% raw %}` tag starting at idx, or -1. */
    private int matchRawBegin(int idx) {
        int p = idx + 2;
        if (p < src.length() && (src.charAt(p) == '-' || src.charAt(p) == '+')) {
            p++;
        }
        p = skipSpace(p);
        if (!src.startsWith("raw", p)) {
            return -1;
        }
        p = skipSpace(p + 3);
        if (src.startsWith("-%}", p)) {
            return skipSpace(p + 3);
        }
        if (src.startsWith("%}", p)) {
            return p + 2;
        }
        return -1;
    }

    private void lexRawBody() {
        int search = pos;
        while (true) {
            int idx = src.indexOf("{%", search);
            if (idx < 0) {
                throw new TemplateException("Missing end of raw directive", line);
            }
            int p = idx + 2;
            char sign = 0;
            if (p < src.length() && (src.charAt(p) == '-' || src.charAt(p) == '+')) {
                sign = src.charAt(p);
                p++;
            }
            p = skipSpace(p);
            if (src.startsWith("endraw", p)) {
                p = skipSpace(p + 6);
                int end = matchBlockEnd(p);
                if (end >= 0) {
                    String text = applyStrip(src.substring(pos, idx), sign, true);
                    emitData(text, line);
                    line += count(src, pos, end);
                    lineStarting = src.charAt(end - 1) == '\n';
                    pos = end;
                    return;
                }
            }
            search = idx + 1;
        }
    }

    /** Matches `+%}`, `-%}\s*` or `%}\n?` at p; returns the end or -1. */
    private int matchBlockEnd(int p) {
        if (src.startsWith("+%}", p)) {
            return p + 3;
        }
        if (src.startsWith("-%}", p)) {
            return skipSpace(p + 3);
        }
        if (src.startsWith("%}", p)) {
            return p + 2 < src.length() && src.charAt(p + 2) == '\n' ? p + 3 : p + 2;
        }
        return -1;
    }

    /** Skips a comment up to the first `#}` (`-#}` also eats following whitespace, plain `#}` one newline). */
    private void lexComment() {
        int idx = src.indexOf("#}", pos);
        if (idx < 0) {
            throw new TemplateException("Missing end of comment tag", line);
        }
        int end;
        if (idx > pos && src.charAt(idx - 1) == '-') {
            end = skipSpace(idx + 2);
        } else if (idx > pos && src.charAt(idx - 1) == '+') {
            end = idx + 2;
        } else {
            end = idx + 2 < src.length() && src.charAt(idx + 2) == '\n' ? idx + 3 : idx + 2;
        }
        line += count(src, pos, end);
        lineStarting = src.charAt(end - 1) == '\n';
        pos = end;
    }

    private void lexInside(boolean block) {
        List<Character> balance = new ArrayList<>();
        int n = src.length();
        while (true) {
            if (pos >= n) {
                throw new TemplateException("unexpected end of template, expected end of tag", line);
            }
            if (balance.isEmpty()) {
                if (block) {
                    int end = matchBlockEnd(pos);
                    if (end >= 0) {
                        out.add(new Token(Kind.BLOCK_END, "%}", line));
                        line += count(src, pos, end);
                        lineStarting = src.charAt(end - 1) == '\n';
                        pos = end;
                        return;
                    }
                } else {
                    if (src.startsWith("-}}", pos)) {
                        int end = skipSpace(pos + 3);
                        out.add(new Token(Kind.VAR_END, "}}", line));
                        line += count(src, pos, end);
                        lineStarting = src.charAt(end - 1) == '\n';
                        pos = end;
                        return;
                    }
                    if (src.startsWith("}}", pos)) {
                        out.add(new Token(Kind.VAR_END, "}}", line));
                        pos += 2;
                        lineStarting = false;
                        return;
                    }
                }
            }
            char c = src.charAt(pos);
            if (isSpace(c)) {
                int e = skipSpace(pos);
                line += count(src, pos, e);
                pos = e;
                continue;
            }
            if (c >= '0' && c <= '9') {
                lexNumber();
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int e = pos + 1;
                while (e < n && (Character.isLetterOrDigit(src.charAt(e)) || src.charAt(e) == '_')) {
                    e++;
                }
                out.add(new Token(Kind.NAME, src.substring(pos, e), line));
                pos = e;
                continue;
            }
            if (c == '\'' || c == '"') {
                lexString(c);
                continue;
            }
            String op = null;
            for (String o : OPERATORS) {
                if (src.startsWith(o, pos)) {
                    op = o;
                    break;
                }
            }
            if (op == null) {
                throw new TemplateException("unexpected char '" + c + "'", line);
            }
            if (op.equals("(") || op.equals("[") || op.equals("{")) {
                balance.add(op.equals("(") ? ')' : op.equals("[") ? ']' : '}');
            } else if (op.equals(")") || op.equals("]") || op.equals("}")) {
                if (balance.isEmpty()) {
                    throw new TemplateException("unexpected '" + op + "'", line);
                }
                char expected = balance.remove(balance.size() - 1);
                if (expected != op.charAt(0)) {
                    throw new TemplateException("unexpected '" + op + "', expected '" + expected + "'", line);
                }
            }
            out.add(new Token(Kind.OP, op, line));
            pos += op.length();
        }
    }

    private int digits(int p) {
        int n = src.length();
        int s = p;
        while (p < n && (Character.isDigit(src.charAt(p)) && src.charAt(p) < 128
                || (src.charAt(p) == '_' && p > s && p + 1 < n && src.charAt(p + 1) >= '0' && src.charAt(p + 1) <= '9'))) {
            p++;
        }
        return p;
    }

    private void lexNumber() {
        int n = src.length();
        int e = digits(pos);
        boolean isFloat = false;
        if (e + 1 < n && src.charAt(e) == '.' && src.charAt(e + 1) >= '0' && src.charAt(e + 1) <= '9') {
            e = digits(e + 1);
            isFloat = true;
        }
        if (e < n && (src.charAt(e) == 'e' || src.charAt(e) == 'E')) {
            int p = e + 1;
            if (p < n && (src.charAt(p) == '+' || src.charAt(p) == '-')) {
                p++;
            }
            if (p < n && src.charAt(p) >= '0' && src.charAt(p) <= '9') {
                e = digits(p);
                isFloat = true;
            }
        }
        String text = src.substring(pos, e).replace("_", "");
        if (!isFloat && text.length() > 1 && text.charAt(0) == '0' && !text.chars().allMatch(ch -> ch == '0')) {
            throw new TemplateException("unsupported integer literal " + text, line);
        }
        out.add(new Token(isFloat ? Kind.FLOAT : Kind.INT, text, line));
        pos = e;
    }

    private void lexString(char q) {
        int n = src.length();
        int p = pos + 1;
        StringBuilder sb = new StringBuilder();
        int startLine = line;
        while (true) {
            if (p >= n) {
                throw new TemplateException("unexpected end of string", startLine);
            }
            char c = src.charAt(p);
            if (c == q) {
                break;
            }
            if (c == '\n') {
                line++;
            }
            if (c != '\\') {
                sb.append(c);
                p++;
                continue;
            }
            if (p + 1 >= n) {
                throw new TemplateException("unexpected end of string", startLine);
            }
            char d = src.charAt(p + 1);
            p += 2;
            switch (d) {
                case '\\' -> sb.append('\\');
                case '\'' -> sb.append('\'');
                case '"' -> sb.append('"');
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'v' -> sb.append('\u000b');
                case '\n' -> line++;
                case 'x', 'u', 'U' -> {
                    int len = d == 'x' ? 2 : d == 'u' ? 4 : 8;
                    if (p + len > n) {
                        throw new TemplateException("truncated \\" + d + " escape in string", line);
                    }
                    int cp;
                    try {
                        cp = Integer.parseInt(src.substring(p, p + len), 16);
                    } catch (NumberFormatException ex) {
                        throw new TemplateException("truncated \\" + d + " escape in string", line);
                    }
                    sb.appendCodePoint(cp);
                    p += len;
                }
                default -> {
                    if (d >= '0' && d <= '7') {
                        int v = d - '0';
                        int k = 0;
                        while (k < 2 && p < n && src.charAt(p) >= '0' && src.charAt(p) <= '7') {
                            v = v * 8 + (src.charAt(p) - '0');
                            p++;
                            k++;
                        }
                        sb.append((char) v);
                    } else if (d == 'N') {
                        throw new TemplateException("unsupported \\N{...} escape in string", line);
                    } else {
                        sb.append('\\').append(d);
                        if (d == '\n') {
                            line++;
                        }
                    }
                }
            }
        }
        out.add(new Token(Kind.STRING, sb.toString(), startLine));
        pos = p + 1;
    }
}
