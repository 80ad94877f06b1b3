package dev.zerolayer.routing.tokens.template;

import java.util.List;

/** What range() returns: a lazy-looking sequence that iterates and indexes like a list but prints as range(a, b[, s]). */
record PyRange(List<Object> items, long start, long stop, long step) {
    String repr() {
        return "range(" + start + ", " + stop + (step != 1 ? ", " + step : "") + ")";
    }
}
