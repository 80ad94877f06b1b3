package dev.zerolayer.routing.tokens.template;

import java.util.List;
import java.util.Map;

/** Anything a template may call: globals, macros, bound string/dict methods, loop.cycle. */
interface PyCallable {
    Object call(List<Object> args, Map<String, Object> kwargs, int line);
}
