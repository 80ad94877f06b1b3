package dev.zerolayer.routing.tokens.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Expression nodes of the AST; each evaluates itself to a Python-like value in a scope. */
interface Expr {
    Object eval(Scope s);

    /**
     * Whether Jinja2's optimizer may fold this expression at compile time (no names, no calls); it over-approximates
     * (and/or/if short-circuit while folding), which only turns an error into a refusal.
     */
    static boolean isConstant(Expr e) {
        if (e instanceof Literal) {
            return true;
        }
        if (e instanceof ListLit l) {
            return l.items().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof TupleLit t) {
            return t.items().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof DictLit d) {
            return d.keys().stream().allMatch(Expr::isConstant) && d.values().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof Binary b) {
            return isConstant(b.left()) && isConstant(b.right());
        }
        if (e instanceof Concat c) {
            return c.parts().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof Compare c) {
            return isConstant(c.first()) && c.rest().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof And a) {
            return isConstant(a.left());
        }
        if (e instanceof Or o) {
            return isConstant(o.left());
        }
        if (e instanceof Not n) {
            return isConstant(n.value());
        }
        if (e instanceof Neg n) {
            return isConstant(n.value());
        }
        if (e instanceof Pos p) {
            return isConstant(p.value());
        }
        if (e instanceof CondExpr c) {
            return isConstant(c.test()) && (isConstant(c.then()) || c.otherwise() == null || isConstant(c.otherwise()));
        }
        if (e instanceof Filter f) {
            return f.value() != null && isConstant(f.value()) && f.args().positional().stream().allMatch(Expr::isConstant)
                    && f.args().keywords().values().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof Test t) {
            return isConstant(t.value()) && t.args().positional().stream().allMatch(Expr::isConstant);
        }
        if (e instanceof GetItem g) {
            return isConstant(g.obj()) && isConstant(g.key());
        }
        if (e instanceof GetAttr g) {
            return isConstant(g.obj());
        }
        if (e instanceof Slice sl) {
            return isConstant(sl.obj());
        }
        return false;
    }

    static List<Object> evalAll(List<Expr> exprs, Scope s) {
        List<Object> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(e.eval(s));
        }
        return out;
    }

    /** Call arguments: positional expressions and keyword name → expression, in source order. */
    record Args(List<Expr> positional, Map<String, Expr> keywords) {
        static final Args NONE = new Args(List.of(), Map.of());

        List<Object> evalPositional(Scope s) {
            return positional.isEmpty() ? List.of() : evalAll(positional, s);
        }

        Map<String, Object> evalKeywords(Scope s) {
            if (keywords.isEmpty()) {
                return Map.of();
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Expr> e : keywords.entrySet()) {
                out.put(e.getKey(), e.getValue().eval(s));
            }
            return out;
        }
    }

    record Literal(Object value) implements Expr {
        public Object eval(Scope s) {
            return value;
        }
    }

    record Name(String name, int line) implements Expr {
        public Object eval(Scope s) {
            return s.lookup(name);
        }
    }

    record ListLit(List<Expr> items) implements Expr {
        public Object eval(Scope s) {
            return evalAll(items, s);
        }
    }

    record TupleLit(List<Expr> items) implements Expr {
        public Object eval(Scope s) {
            return new PyTuple(evalAll(items, s));
        }
    }

    record DictLit(List<Expr> keys, List<Expr> values, int line) implements Expr {
        public Object eval(Scope s) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                Object k = keys.get(i).eval(s);
                if (k instanceof List<?> || k instanceof Map<?, ?> || k instanceof Undefined) {
                    throw new TemplateException("unsupported: dict key of type " + Py.typeName(k), line);
                }
                if (k instanceof Boolean b) {
                    throw new TemplateException("unsupported: boolean dict key", line);
                }
                if (k instanceof Double d) {
                    throw new TemplateException("unsupported: float dict key " + d, line);
                }
                m.put(k, values.get(i).eval(s));
            }
            return m;
        }
    }

    record GetAttr(Expr obj, String name, int line) implements Expr {
        public Object eval(Scope s) {
            return Py.getAttr(obj.eval(s), name, line);
        }
    }

    record GetItem(Expr obj, Expr key, int line) implements Expr {
        public Object eval(Scope s) {
            Object o = obj.eval(s);
            return Py.getItem(o, key.eval(s), line);
        }
    }

    record Slice(Expr obj, Expr start, Expr stop, Expr step, int line) implements Expr {
        public Object eval(Scope s) {
            Object o = obj.eval(s);
            if (isConstant(obj) && !(o instanceof String || o instanceof List<?> || o instanceof PyTuple)) {
                // Jinja2's optimizer folds constant slices through environment.getitem (undefined, not an error)
                throw new TemplateException("unsupported: slicing a constant " + Py.typeName(o), line);
            }
            return Py.slice(o, bound(start, s), bound(stop, s), bound(step, s), line);
        }

        private static Object bound(Expr e, Scope s) {
            return e == null ? null : e.eval(s);
        }
    }

    record Call(Expr fn, Args args, int line) implements Expr {
        public Object eval(Scope s) {
            Object f = fn.eval(s);
            List<Object> a = args.evalPositional(s);
            Map<String, Object> kw = args.evalKeywords(s);
            if (f instanceof PyCallable c) {
                return c.call(a, kw, line);
            }
            if (f instanceof Undefined u) {
                throw u.fail(line);
            }
            throw new TemplateException("TypeError: " + Py.typeName(f) + " object is not callable", line);
        }
    }

    record Filter(Expr value, String name, Filters.Fn fn, Args args, int line) implements Expr {
        public Object eval(Scope s) {
            Object v = value == null ? null : value.eval(s);
            return fn.apply(v, args.evalPositional(s), args.evalKeywords(s), s, line);
        }
    }

    record Test(Expr value, String name, Tests.Fn fn, Args args, boolean negated, int line) implements Expr {
        public Object eval(Scope s) {
            boolean r = fn.test(value.eval(s), args.evalPositional(s), line);
            return negated != r;
        }
    }

    record Binary(String op, Expr left, Expr right, int line) implements Expr {
        public Object eval(Scope s) {
            return Py.binary(op, left.eval(s), right.eval(s), line);
        }
    }

    record Concat(List<Expr> parts, int line) implements Expr {
        public Object eval(Scope s) {
            StringBuilder sb = new StringBuilder();
            for (Expr p : parts) {
                Object v = p.eval(s);
                if (v instanceof Markup) {
                    throw new TemplateException("unsupported: ~ with a Markup (safe/escape) value", line);
                }
                Py.appendStr(v, sb, line);
            }
            return sb.toString();
        }
    }

    /** A chain a op1 b op2 c evaluated as Python does (a op1 b and b op2 c, b once). */
    record Compare(Expr first, List<String> ops, List<Expr> rest, int line) implements Expr {
        public Object eval(Scope s) {
            Object left = first.eval(s);
            for (int i = 0; i < ops.size(); i++) {
                Object right = rest.get(i).eval(s);
                if (!compare(ops.get(i), left, right, line)) {
                    return false;
                }
                left = right;
            }
            return true;
        }

        static boolean compare(String op, Object a, Object b, int line) {
            return switch (op) {
                case "==" -> Py.eq(a, b);
                case "!=" -> !Py.eq(a, b);
                case "<" -> Py.compare(a, b, op, line) < 0;
                case "<=" -> Py.compare(a, b, op, line) <= 0;
                case ">" -> Py.compare(a, b, op, line) > 0;
                case ">=" -> Py.compare(a, b, op, line) >= 0;
                case "in" -> Py.contains(b, a, line);
                case "notin" -> !Py.contains(b, a, line);
                default -> throw new TemplateException("unsupported operator " + op, line);
            };
        }
    }

    record And(Expr left, Expr right) implements Expr {
        public Object eval(Scope s) {
            Object l = left.eval(s);
            return Py.truthy(l) ? right.eval(s) : l;
        }
    }

    record Or(Expr left, Expr right) implements Expr {
        public Object eval(Scope s) {
            Object l = left.eval(s);
            return Py.truthy(l) ? l : right.eval(s);
        }
    }

    record Not(Expr value) implements Expr {
        public Object eval(Scope s) {
            return !Py.truthy(value.eval(s));
        }
    }

    record Neg(Expr value, int line) implements Expr {
        public Object eval(Scope s) {
            return Py.negate(value.eval(s), line);
        }
    }

    record Pos(Expr value, int line) implements Expr {
        public Object eval(Scope s) {
            Object v = value.eval(s);
            if (v instanceof Boolean b) {
                return b ? 1L : 0L;
            }
            if (v instanceof Long || v instanceof Double) {
                return v;
            }
            if (v instanceof Undefined u) {
                throw u.fail(line);
            }
            throw new TemplateException("TypeError: bad operand type for unary +: " + Py.typeName(v), line);
        }
    }

    record CondExpr(Expr test, Expr then, Expr otherwise, int line) implements Expr {
        public Object eval(Scope s) {
            if (Py.truthy(test.eval(s))) {
                return then.eval(s);
            }
            return otherwise == null ? new Undefined("the inline if-expression evaluated to false and no else section was defined.") : otherwise.eval(s);
        }
    }
}
