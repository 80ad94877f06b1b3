package dev.zerolayer.routing.tokens.template;

/** Jinja2's default Undefined: renders as '', is falsy, iterates as empty, and fails on arithmetic, attributes and items. */
final class Undefined {
    /** What was missing, for error messages (Python's "'x' is undefined"). */
    final String hint;

    Undefined(String hint) {
        this.hint = hint;
    }

    static Undefined named(String name) {
        return new Undefined("'" + name + "' is undefined");
    }

    static Undefined attribute(Object owner, String name) {
        return new Undefined(Py.typeName(owner) + " object has no attribute '" + name + "'");
    }

    TemplateException fail(int line) {
        return new TemplateException("UndefinedError: " + (hint.isEmpty() ? "value is undefined" : hint), line);
    }
}
