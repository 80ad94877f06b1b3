package dev.zerolayer.routing.tokens.template;

import java.util.LinkedHashMap;
import java.util.Map;

/** The mutable object `namespace(...)` returns: the only thing `set ns.attr = value` may write to. */
final class Namespace {
    final Map<String, Object> attrs = new LinkedHashMap<>();
}
