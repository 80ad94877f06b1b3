package dev.zerolayer.simulator.node;

import tools.jackson.core.io.JsonStringEncoder;

/** JSON string quoting for hand-assembled response frames (the hot path builds no object trees). */
final class Json {

    private Json() {
    }

    /** The value as a JSON string literal, quotes included; null as {@code null}. */
    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(value.length() + 8).append('"');
        JsonStringEncoder.getInstance().quoteAsString(value, out);
        return out.append('"').toString();
    }

    /** Appends the value as a JSON string literal. */
    static StringBuilder quote(StringBuilder out, String value) {
        out.append('"');
        JsonStringEncoder.getInstance().quoteAsString(value, out);
        return out.append('"');
    }
}
