package dev.zerolayer.routing.tokens.template;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A variable frame: names set here shadow the parent's; a for-loop iteration, for-else, macro call, block set, filter or generation body opens one, if does not. */
final class Scope {
    final Scope parent;
    final Clock clock;
    private final Map<String, Object> vars;

    Scope(Scope parent, Clock clock, Map<String, Object> vars) {
        this.parent = parent;
        this.clock = clock;
        this.vars = vars;
    }

    Scope child() {
        return new Scope(this, clock, new HashMap<>(8));
    }

    void set(String name, Object value) {
        vars.put(name, value);
    }

    Object lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Object v = s.vars.get(name);
            if (v != null || s.vars.containsKey(name)) {
                return v;
            }
        }
        return Globals.get(name);
    }
}
