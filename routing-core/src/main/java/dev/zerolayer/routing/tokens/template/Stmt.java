package dev.zerolayer.routing.tokens.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Statement nodes of the AST; each renders itself into the output in a scope. */
interface Stmt {
    void render(StringBuilder out, Scope s);

    static void renderAll(List<Stmt> body, StringBuilder out, Scope s) {
        for (int i = 0, n = body.size(); i < n; i++) {
            body.get(i).render(out, s);
        }
    }

    record Data(String text) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            out.append(text);
        }
    }

    record Output(Expr expr, int line) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            Py.appendStr(expr.eval(s), out, line);
        }
    }

    /** A body rendered in its own scope: HF's `generation` block (a call block, so an inner frame). */
    record Scoped(List<Stmt> body) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            renderAll(body, out, s.child());
        }
    }

    record If(List<Expr> tests, List<List<Stmt>> bodies, List<Stmt> otherwise) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            for (int i = 0; i < tests.size(); i++) {
                if (Py.truthy(tests.get(i).eval(s))) {
                    renderAll(bodies.get(i), out, s);
                    return;
                }
            }
            renderAll(otherwise, out, s);
        }
    }

    /** Assigns a value to names in the current scope; several names unpack a sequence. */
    record Set(List<String> targets, Expr value, int line) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            assign(targets, value.eval(s), s, line);
        }

        static void assign(List<String> targets, Object v, Scope s, int line) {
            if (targets.size() == 1) {
                s.set(targets.get(0), v);
                return;
            }
            if (v instanceof Undefined u) {
                throw u.fail(line);
            }
            List<Object> items = Py.iterate(v, line);
            if (items.size() != targets.size()) {
                throw new TemplateException("ValueError: cannot unpack " + items.size() + " values into "
                        + targets.size() + " names", line);
            }
            for (int i = 0; i < targets.size(); i++) {
                s.set(targets.get(i), items.get(i));
            }
        }
    }

    record SetAttr(String target, String attr, Expr value, int line) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            Object v = value.eval(s);
            Object ns = s.lookup(target);
            if (!(ns instanceof Namespace n)) {
                throw new TemplateException("TemplateRuntimeError: cannot assign attribute on non-namespace object", line);
            }
            n.attrs.put(attr, v);
        }
    }

    /** `set name %}...{% endset`: the body renders in its own scope (Jinja2 compiles it as an inner frame). */
    record SetBlock(String name, List<Stmt> body, Expr filter) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            StringBuilder sb = new StringBuilder();
            renderAll(body, sb, s.child());
            Object v = sb.toString();
            if (filter != null) {
                Scope tmp = s.child();
                tmp.set("\u0000block", v);
                v = filter.eval(tmp);
            }
            s.set(name, v);
        }
    }

    record FilterBlock(List<Stmt> body, Expr filter, int line) implements Stmt {
        public void render(StringBuilder out, Scope s) {
            StringBuilder sb = new StringBuilder();
            renderAll(body, sb, s.child());
            Scope tmp = s.child();
            tmp.set("\u0000block", sb.toString());
            Py.appendStr(filter.eval(tmp), out, line);
        }
    }

    record For(List<String> targets, Expr iter, Expr cond, List<Stmt> body, List<Stmt> otherwise, int line)
            implements Stmt {
        public void render(StringBuilder out, Scope s) {
            Object seq = iter.eval(s);
            List<Object> items = Py.iterate(seq, line);
            if (cond != null) {
                List<Object> kept = new ArrayList<>();
                for (Object item : items) {
                    Scope f = s.child();
                    Set.assign(targets, item, f, line);
                    if (Py.truthy(cond.eval(f))) {
                        kept.add(item);
                    }
                }
                items = kept;
            }
            if (items.isEmpty()) {
                renderAll(otherwise, out, s.child()); // the else block is an inner frame too
                return;
            }
            LoopInfo loop = new LoopInfo(items);
            for (int i = 0; i < items.size(); i++) {
                loop.index0 = i;
                Scope f = s.child();
                f.set("loop", loop);
                Set.assign(targets, items.get(i), f, line);
                try {
                    renderAll(body, out, f);
                } catch (LoopControl control) {
                    if (control == LoopControl.BREAK) {
                        break;
                    }
                }
            }
        }
    }

    /** {@code break} / {@code continue} (transformers enables loopcontrols), unwinding to the innermost loop. */
    final class LoopControl extends RuntimeException {
        static final LoopControl BREAK = new LoopControl();
        static final LoopControl CONTINUE = new LoopControl();

        private LoopControl() {
            super(null, null, false, false);
        }
    }

    /** Leaves the innermost loop (the parser admits it only inside a loop body). */
    record Break() implements Stmt {
        public void render(StringBuilder out, Scope s) {
            throw LoopControl.BREAK;
        }
    }

    /** Goes on with the innermost loop's next item. */
    record Continue() implements Stmt {
        public void render(StringBuilder out, Scope s) {
            throw LoopControl.CONTINUE;
        }
    }

    record Macro(String name, List<String> params, List<Expr> defaults, List<Stmt> body, int line)
            implements Stmt {
        public void render(StringBuilder out, Scope defining) {
            defining.set(name, (PyCallable) (args, kw, callLine) -> call(defining, args, kw, callLine));
        }

        private String call(Scope defining, List<Object> args, Map<String, Object> kw, int callLine) {
            if (args.size() > params.size()) {
                throw new TemplateException("TypeError: macro '" + name + "' takes not more than " + params.size()
                        + " argument(s)", callLine);
            }
            Scope f = defining.child();
            int firstDefault = params.size() - defaults.size();
            for (int i = 0; i < params.size(); i++) {
                String p = params.get(i);
                Object v;
                if (i < args.size()) {
                    if (kw.containsKey(p)) {
                        throw new TemplateException("TypeError: macro '" + name + "' got multiple values for argument '"
                                + p + "'", callLine);
                    }
                    v = args.get(i);
                } else if (kw.containsKey(p)) {
                    v = kw.get(p);
                } else if (i >= firstDefault) {
                    v = defaults.get(i - firstDefault).eval(f);
                } else {
                    v = new Undefined("parameter '" + p + "' was not provided");
                }
                f.set(p, v);
            }
            for (String k : kw.keySet()) {
                if (!params.contains(k)) {
                    throw new TemplateException("TypeError: macro '" + name + "' takes no keyword argument '" + k + "'",
                            callLine);
                }
            }
            StringBuilder sb = new StringBuilder();
            renderAll(body, sb, f);
            return sb.toString();
        }
    }
}
