package dev.zerolayer.routing.tokens.template;

import java.util.List;

/** A Python tuple: an immutable sequence that prints as (a, b) and never equals a list. */
record PyTuple(List<Object> items) {
}
