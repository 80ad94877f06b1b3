package dev.zerolayer.routing.tokens.template;

/** One lexical token of a template: its kind, its text (data, name, operator, decoded string) and its 1-based line. */
record Token(Kind kind, String text, int line) {
    enum Kind { DATA, VAR_BEGIN, VAR_END, BLOCK_BEGIN, BLOCK_END, NAME, STRING, INT, FLOAT, OP, EOF }

    boolean is(Kind k, String t) {
        return kind == k && text.equals(t);
    }

    boolean isName(String t) {
        return kind == Kind.NAME && text.equals(t);
    }

    boolean isOp(String t) {
        return kind == Kind.OP && text.equals(t);
    }
}
