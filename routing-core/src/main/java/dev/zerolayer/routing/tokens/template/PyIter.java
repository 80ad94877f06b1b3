package dev.zerolayer.routing.tokens.template;

import java.util.List;

/** A one-shot Python generator/iterator (what map, select, selectattr, unique, items and reverse return): truthy, no len, not printable. */
final class PyIter {
    private final List<Object> items;
    private int pos;

    PyIter(List<Object> items) {
        this.items = items;
    }

    /** Consumes and returns what is left. */
    List<Object> drain() {
        List<Object> rest = items.subList(pos, items.size());
        pos = items.size();
        return rest;
    }

    /** Consumes one item, or returns Py.MISSING when exhausted. */
    Object next() {
        return pos < items.size() ? items.get(pos++) : Py.MISSING;
    }
}
