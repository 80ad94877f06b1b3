package dev.zerolayer.routing.tokens.template;

import dev.zerolayer.routing.tokens.template.Token.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Recursive-descent parser following Jinja2's grammar and precedence; refuses every construct it does not implement. */
final class Parser {
    private static final Set<String> KNOWN_BUT_UNSUPPORTED = Set.of("block", "extends", "include", "import", "from",
            "with", "autoescape", "call", "do", "print", "trans", "pluralize", "endblock");

    private final List<Token> tokens;
    private int pos;
    /** For-loop bodies open around the statement being parsed (a macro's body starts again at 0). */
    private int loopDepth;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static List<Stmt> parse(String source) {
        Parser p = new Parser(Lexer.tokenize(source));
        List<Stmt> body = p.subparse(Set.of());
        if (p.peek().kind() != Kind.EOF) {
            Token t = p.peek();
            throw new TemplateException("unexpected '" + t.text() + "'", t.line());
        }
        return body;
    }

    // ---------------------------------------------------------------- token helpers

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peekAt(int k) {
        return tokens.get(Math.min(pos + k, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Kind.EOF) {
            pos++;
        }
        return t;
    }

    private boolean skipOp(String op) {
        if (peek().isOp(op)) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean skipName(String name) {
        if (peek().isName(name)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token expect(Kind kind, String text) {
        Token t = peek();
        if (t.kind() != kind || (text != null && !t.text().equals(text))) {
            String what = text != null ? "'" + text + "'" : kind.name().toLowerCase();
            String got = t.kind() == Kind.EOF ? "end of template" : "'" + t.text() + "'";
            throw new TemplateException("expected " + what + ", got " + got, t.line());
        }
        return next();
    }

    private String expectName() {
        return expect(Kind.NAME, null).text();
    }

    private void expectBlockEnd() {
        expect(Kind.BLOCK_END, null);
    }

    // ---------------------------------------------------------------- statements

    /** Parses until a block tag whose keyword is in `ends` (left unconsumed, positioned on the keyword) or EOF. */
    private List<Stmt> subparse(Set<String> ends) {
        List<Stmt> body = new ArrayList<>();
        while (true) {
            Token t = peek();
            switch (t.kind()) {
                case EOF -> {
                    if (!ends.isEmpty()) {
                        throw new TemplateException("Unexpected end of template. Jinja was looking for one of "
                                + ends, t.line());
                    }
                    return body;
                }
                case DATA -> {
                    next();
                    body.add(new Stmt.Data(t.text()));
                }
                case VAR_BEGIN -> {
                    next();
                    Expr e = parseTuple(true);
                    expect(Kind.VAR_END, null);
                    body.add(new Stmt.Output(e, t.line()));
                }
                case BLOCK_BEGIN -> {
                    next();
                    Token kw = peek();
                    if (kw.kind() != Kind.NAME) {
                        throw new TemplateException("tag name expected", kw.line());
                    }
                    if (ends.contains(kw.text())) {
                        return body;
                    }
                    next();
                    Stmt st = statement(kw);
                    if (st != null) {
                        body.add(st);
                    }
                }
                default -> throw new TemplateException("unexpected '" + t.text() + "'", t.line());
            }
        }
    }

    private Stmt statement(Token kw) {
        int line = kw.line();
        switch (kw.text()) {
            case "if":
                return parseIf(line);
            case "for":
                return parseFor(line);
            case "set":
                return parseSet(line);
            case "macro":
                return parseMacro(line);
            case "filter": {
                Expr f = parseFilterChain(new Expr.Name("\u0000block", line), true);
                expectBlockEnd();
                List<Stmt> body = outsideLoops(() -> subparse(Set.of("endfilter")));
                next();
                expectBlockEnd();
                return new Stmt.FilterBlock(body, f, line);
            }
            case "break", "continue": {
                // transformers enables jinja2.ext.loopcontrols; outside a loop Python cannot compile them
                if (loopDepth == 0) {
                    throw new TemplateException("'" + kw.text() + "' outside a loop", line);
                }
                expectBlockEnd();
                return kw.text().equals("break") ? new Stmt.Break() : new Stmt.Continue();
            }
            case "generation": {
                expectBlockEnd();
                List<Stmt> body = subparse(Set.of("endgeneration"));
                next();
                expectBlockEnd();
                return new Stmt.Scoped(body);
            }
            default:
                if (KNOWN_BUT_UNSUPPORTED.contains(kw.text())) {
                    throw new TemplateException("unsupported statement '" + kw.text() + "'", line);
                }
                throw new TemplateException("unsupported or unknown tag '" + kw.text() + "'", line);
        }
    }

    /**
     * A body parsed as if no loop were open: a macro's is a function of its own, and loop controls inside filter and
     * block-set bodies are refused rather than rendered into a buffer the loop's exit would drop.
     */
    private List<Stmt> outsideLoops(java.util.function.Supplier<List<Stmt>> body) {
        int saved = loopDepth;
        loopDepth = 0;
        try {
            return body.get();
        } finally {
            loopDepth = saved;
        }
    }

    private Stmt parseIf(int line) {
        List<Expr> tests = new ArrayList<>();
        List<List<Stmt>> bodies = new ArrayList<>();
        List<Stmt> otherwise = List.of();
        tests.add(parseTuple(false));
        expectBlockEnd();
        while (true) {
            bodies.add(subparse(Set.of("elif", "else", "endif")));
            Token t = next();
            if (t.text().equals("elif")) {
                tests.add(parseTuple(false));
                expectBlockEnd();
                continue;
            }
            if (t.text().equals("else")) {
                expectBlockEnd();
                otherwise = subparse(Set.of("endif"));
                next();
            }
            expectBlockEnd();
            return new Stmt.If(tests, bodies, otherwise);
        }
    }

    private List<String> parseTargets(String endName) {
        List<String> names = new ArrayList<>();
        boolean paren = skipOp("(");
        do {
            if (!paren && (peek().isName(endName) || peek().isOp("="))) {
                break;
            }
            Token t = expect(Kind.NAME, null);
            checkAssignable(t);
            names.add(t.text());
        } while (skipOp(","));
        if (paren) {
            expect(Kind.OP, ")");
        }
        if (names.isEmpty()) {
            throw new TemplateException("expected an assignment target", peek().line());
        }
        return names;
    }

    private static void checkAssignable(Token t) {
        switch (t.text()) {
            case "true", "false", "none", "True", "False", "None" ->
                    throw new TemplateException("Can't assign to " + t.text(), t.line());
            default -> {
            }
        }
    }

    private Stmt parseFor(int line) {
        List<String> targets = parseTargets("in");
        expect(Kind.NAME, "in");
        Expr iter = parseTuple(false);
        Expr cond = null;
        if (skipName("if")) {
            cond = parseExpression(true);
        }
        if (peek().isName("recursive")) {
            throw new TemplateException("unsupported: recursive for loops", peek().line());
        }
        expectBlockEnd();
        loopDepth++;
        List<Stmt> body;
        try {
            body = subparse(Set.of("endfor", "else"));
        } finally {
            loopDepth--;
        }
        List<Stmt> otherwise = List.of();
        if (next().text().equals("else")) {
            expectBlockEnd();
            otherwise = subparse(Set.of("endfor"));
            next();
        }
        expectBlockEnd();
        return new Stmt.For(targets, iter, cond, body, otherwise, line);
    }

    private Stmt parseSet(int line) {
        if (peek().kind() == Kind.NAME && peekAt(1).isOp(".")) {
            String target = next().text();
            next();
            String attr = expectName();
            expect(Kind.OP, "=");
            Expr value = parseTuple(true);
            expectBlockEnd();
            return new Stmt.SetAttr(target, attr, value, line);
        }
        List<String> targets = parseTargets("\u0000");
        if (skipOp("=")) {
            Expr value = parseTuple(true);
            expectBlockEnd();
            return new Stmt.Set(targets, value, line);
        }
        if (targets.size() != 1) {
            throw new TemplateException("expected '='", peek().line());
        }
        Expr filter = null;
        if (peek().isOp("|")) {
            filter = parseFilterChain(new Expr.Name("\u0000block", line), false);
        }
        expectBlockEnd();
        List<Stmt> body = outsideLoops(() -> subparse(Set.of("endset")));
        next();
        expectBlockEnd();
        return new Stmt.SetBlock(targets.get(0), body, filter);
    }

    private Stmt parseMacro(int line) {
        Token nameTok = expect(Kind.NAME, null);
        checkAssignable(nameTok);
        expect(Kind.OP, "(");
        List<String> params = new ArrayList<>();
        List<Expr> defaults = new ArrayList<>();
        while (!peek().isOp(")")) {
            if (!params.isEmpty()) {
                expect(Kind.OP, ",");
                if (peek().isOp(")")) {
                    break;
                }
            }
            Token p = expect(Kind.NAME, null);
            checkAssignable(p);
            params.add(p.text());
            if (skipOp("=")) {
                defaults.add(parseExpression(true));
            } else if (!defaults.isEmpty()) {
                throw new TemplateException("non-default argument follows default argument", p.line());
            }
        }
        next();
        expectBlockEnd();
        List<Stmt> body = outsideLoops(() -> subparse(Set.of("endmacro")));
        next();
        expectBlockEnd();
        // varargs, kwargs and caller are refused wherever they are read (parsePrimary), so calls bind plainly
        return new Stmt.Macro(nameTok.text(), params, defaults, body, line);
    }

    // ---------------------------------------------------------------- expressions

    private Expr parseTuple(boolean withCondexpr) {
        Expr first = parseExpression(withCondexpr);
        if (!peek().isOp(",")) {
            return first;
        }
        List<Expr> items = new ArrayList<>();
        items.add(first);
        while (skipOp(",")) {
            if (isTupleEnd()) {
                break;
            }
            items.add(parseExpression(withCondexpr));
        }
        return new Expr.TupleLit(List.copyOf(items));
    }

    private boolean isTupleEnd() {
        Token t = peek();
        return t.kind() == Kind.VAR_END || t.kind() == Kind.BLOCK_END || t.kind() == Kind.EOF || t.isOp(")")
                || t.isName("if") || t.isName("recursive") || t.isOp("=");
    }

    private Expr parseExpression(boolean withCondexpr) {
        return withCondexpr ? parseCondexpr() : parseOr();
    }

    private Expr parseCondexpr() {
        int line = peek().line();
        Expr e = parseOr();
        while (skipName("if")) {
            Expr test = parseOr();
            Expr otherwise = skipName("else") ? parseCondexpr() : null;
            e = new Expr.CondExpr(test, e, otherwise, line);
        }
        return e;
    }

    private Expr parseOr() {
        Expr e = parseAnd();
        while (skipName("or")) {
            e = new Expr.Or(e, parseAnd());
        }
        return e;
    }

    private Expr parseAnd() {
        Expr e = parseNot();
        while (skipName("and")) {
            e = new Expr.And(e, parseNot());
        }
        return e;
    }

    private Expr parseNot() {
        if (skipName("not")) {
            return new Expr.Not(parseNot());
        }
        return parseCompare();
    }

    private Expr parseCompare() {
        int line = peek().line();
        Expr first = parseMath1();
        List<String> ops = new ArrayList<>();
        List<Expr> rest = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.kind() == Kind.OP && (t.text().equals("==") || t.text().equals("!=") || t.text().equals("<")
                    || t.text().equals(">") || t.text().equals("<=") || t.text().equals(">="))) {
                next();
                ops.add(t.text());
            } else if (t.isName("in")) {
                next();
                ops.add("in");
            } else if (t.isName("not") && peekAt(1).isName("in")) {
                next();
                next();
                ops.add("notin");
            } else {
                break;
            }
            rest.add(parseMath1());
        }
        return ops.isEmpty() ? first : new Expr.Compare(first, List.copyOf(ops), List.copyOf(rest), line);
    }

    private Expr parseMath1() {
        Expr e = parseConcat();
        while (peek().isOp("+") || peek().isOp("-")) {
            Token op = next();
            e = new Expr.Binary(op.text(), e, parseConcat(), op.line());
        }
        return e;
    }

    private Expr parseConcat() {
        int line = peek().line();
        Expr e = parseMath2();
        if (!peek().isOp("~")) {
            return e;
        }
        List<Expr> parts = new ArrayList<>();
        parts.add(e);
        while (skipOp("~")) {
            parts.add(parseMath2());
        }
        return new Expr.Concat(List.copyOf(parts), line);
    }

    private Expr parseMath2() {
        Expr e = parsePow();
        while (peek().isOp("*") || peek().isOp("/") || peek().isOp("//") || peek().isOp("%")) {
            Token op = next();
            e = new Expr.Binary(op.text(), e, parsePow(), op.line());
        }
        return e;
    }

    private Expr parsePow() {
        Expr e = parseUnary(true);
        while (peek().isOp("**")) {
            Token op = next();
            e = new Expr.Binary("**", e, parseUnary(true), op.line());
        }
        return e;
    }

    private Expr parseUnary(boolean withFilter) {
        Token t = peek();
        Expr e;
        if (t.isOp("-")) {
            next();
            e = new Expr.Neg(parseUnary(false), t.line());
        } else if (t.isOp("+")) {
            next();
            e = new Expr.Pos(parseUnary(false), t.line());
        } else {
            e = parsePrimary();
        }
        e = parsePostfix(e);
        if (withFilter) {
            e = parseFilterExpr(e);
        }
        return e;
    }

    private Expr parsePrimary() {
        Token t = next();
        switch (t.kind()) {
            case NAME:
                switch (t.text()) {
                    case "true", "True":
                        return new Expr.Literal(Boolean.TRUE);
                    case "false", "False":
                        return new Expr.Literal(Boolean.FALSE);
                    case "none", "None":
                        return new Expr.Literal(null);
                    case "self", "super", "varargs", "kwargs", "caller":
                        throw new TemplateException("unsupported: special name '" + t.text() + "'", t.line());
                    default:
                        return new Expr.Name(t.text(), t.line());
                }
            case STRING: {
                StringBuilder sb = new StringBuilder(t.text());
                while (peek().kind() == Kind.STRING) {
                    sb.append(next().text());
                }
                return new Expr.Literal(sb.toString());
            }
            case INT:
                try {
                    return new Expr.Literal(Long.parseLong(t.text()));
                } catch (NumberFormatException e) {
                    throw new TemplateException("unsupported: integer literal too large", t.line());
                }
            case FLOAT:
                return new Expr.Literal(Double.parseDouble(t.text()));
            case OP:
                switch (t.text()) {
                    case "(": {
                        if (skipOp(")")) {
                            return new Expr.TupleLit(List.of());
                        }
                        Expr first = parseExpression(true);
                        if (skipOp(")")) {
                            return first;
                        }
                        List<Expr> items = new ArrayList<>();
                        items.add(first);
                        while (skipOp(",")) {
                            if (peek().isOp(")")) {
                                break;
                            }
                            items.add(parseExpression(true));
                        }
                        expect(Kind.OP, ")");
                        return new Expr.TupleLit(List.copyOf(items));
                    }
                    case "[": {
                        List<Expr> items = new ArrayList<>();
                        while (!peek().isOp("]")) {
                            if (!items.isEmpty()) {
                                expect(Kind.OP, ",");
                                if (peek().isOp("]")) {
                                    break;
                                }
                            }
                            items.add(parseExpression(true));
                        }
                        next();
                        return new Expr.ListLit(List.copyOf(items));
                    }
                    case "{": {
                        List<Expr> keys = new ArrayList<>();
                        List<Expr> values = new ArrayList<>();
                        while (!peek().isOp("}")) {
                            if (!keys.isEmpty()) {
                                expect(Kind.OP, ",");
                                if (peek().isOp("}")) {
                                    break;
                                }
                            }
                            keys.add(parseExpression(true));
                            expect(Kind.OP, ":");
                            values.add(parseExpression(true));
                        }
                        next();
                        return new Expr.DictLit(List.copyOf(keys), List.copyOf(values), t.line());
                    }
                    default:
                        break;
                }
                break;
            default:
                break;
        }
        String got = t.kind() == Kind.EOF ? "end of template" : "'" + t.text() + "'";
        throw new TemplateException("unexpected " + got, t.line());
    }

    private Expr parsePostfix(Expr e) {
        while (true) {
            Token t = peek();
            if (t.isOp(".")) {
                next();
                Token a = next();
                if (a.kind() == Kind.NAME) {
                    e = new Expr.GetAttr(e, a.text(), a.line());
                } else if (a.kind() == Kind.INT) {
                    e = new Expr.GetItem(e, new Expr.Literal(Long.parseLong(a.text())), a.line());
                } else {
                    throw new TemplateException("expected name or number", a.line());
                }
            } else if (t.isOp("[")) {
                next();
                e = parseSubscript(e, t.line());
            } else if (t.isOp("(")) {
                next();
                e = new Expr.Call(e, parseCallArgs(), t.line());
            } else {
                return e;
            }
        }
    }

    private Expr parseSubscript(Expr obj, int line) {
        Expr[] parts = new Expr[3];
        boolean slice = false;
        int idx = 0;
        while (true) {
            Token t = peek();
            if (t.isOp(":")) {
                next();
                slice = true;
                idx++;
                if (idx > 2) {
                    throw new TemplateException("invalid slice", t.line());
                }
                continue;
            }
            if (t.isOp("]")) {
                next();
                break;
            }
            if (t.isOp(",")) {
                throw new TemplateException("unsupported: tuple subscript", t.line());
            }
            if (parts[idx] != null) {
                throw new TemplateException("expected ']'", t.line());
            }
            parts[idx] = parseExpression(true);
        }
        if (!slice) {
            if (parts[0] == null) {
                throw new TemplateException("expected an expression in subscript", line);
            }
            return new Expr.GetItem(obj, parts[0], line);
        }
        return new Expr.Slice(obj, parts[0], parts[1], parts[2], line);
    }

    private Expr.Args parseCallArgs() {
        List<Expr> positional = new ArrayList<>();
        Map<String, Expr> keywords = new LinkedHashMap<>();
        boolean first = true;
        while (!peek().isOp(")")) {
            if (!first) {
                expect(Kind.OP, ",");
                if (peek().isOp(")")) {
                    break;
                }
            }
            first = false;
            Token t = peek();
            if (t.isOp("*") || t.isOp("**")) {
                throw new TemplateException("unsupported: *args / **kwargs in calls", t.line());
            }
            if (t.kind() == Kind.NAME && peekAt(1).isOp("=")) {
                next();
                next();
                if (keywords.containsKey(t.text())) {
                    throw new TemplateException("keyword argument repeated: " + t.text(), t.line());
                }
                keywords.put(t.text(), parseExpression(true));
            } else {
                if (!keywords.isEmpty()) {
                    throw new TemplateException("Invalid argument syntax (positional after keyword)", t.line());
                }
                positional.add(parseExpression(true));
            }
        }
        next();
        if (positional.isEmpty() && keywords.isEmpty()) {
            return Expr.Args.NONE;
        }
        return new Expr.Args(List.copyOf(positional), keywords);
    }

    private Expr parseFilterExpr(Expr e) {
        while (true) {
            Token t = peek();
            if (t.isOp("|")) {
                e = parseFilterChain(e, false);
            } else if (t.isName("is")) {
                next();
                e = parseTest(e, t.line());
            } else if (t.isOp("(")) {
                next();
                e = new Expr.Call(e, parseCallArgs(), t.line());
            } else {
                return e;
            }
        }
    }

    /** Parses `| f(args) | g ...`; with startInline the first filter has no leading pipe. */
    private Expr parseFilterChain(Expr value, boolean startInline) {
        Expr e = value;
        boolean first = startInline;
        while (first || peek().isOp("|")) {
            if (!first) {
                next();
            }
            first = false;
            Token nameTok = expect(Kind.NAME, null);
            String name = nameTok.text();
            while (peek().isOp(".")) {
                next();
                name += "." + expectName();
            }
            Filters.Fn fn = Filters.get(name);
            if (fn == null) {
                throw new TemplateException("No filter named '" + name + "' (unsupported)", nameTok.line());
            }
            Expr.Args args = Expr.Args.NONE;
            if (skipOp("(")) {
                args = parseCallArgs();
            }
            e = new Expr.Filter(e, name, fn, args, nameTok.line());
        }
        return e;
    }

    private Expr parseTest(Expr value, int line) {
        boolean negated = skipName("not");
        Token nameTok = expect(Kind.NAME, null);
        String name = nameTok.text();
        while (peek().isOp(".")) {
            next();
            name += "." + expectName();
        }
        Tests.Fn fn = Tests.get(name);
        if (fn == null) {
            throw new TemplateException("No test named '" + name + "' (unsupported)", nameTok.line());
        }
        Expr.Args args = Expr.Args.NONE;
        Token t = peek();
        if (t.isOp("(")) {
            next();
            args = parseCallArgs();
        } else if ((t.kind() == Kind.NAME || t.kind() == Kind.STRING || t.kind() == Kind.INT
                || t.kind() == Kind.FLOAT || t.isOp("(") || t.isOp("[") || t.isOp("{"))
                && !t.isName("else") && !t.isName("or") && !t.isName("and")) {
            if (t.isName("is")) {
                throw new TemplateException("You cannot chain multiple tests with is", t.line());
            }
            Expr arg = parsePostfix(parsePrimary());
            args = new Expr.Args(List.of(arg), Map.of());
        }
        return new Expr.Test(value, name, fn, args, negated, line);
    }
}
