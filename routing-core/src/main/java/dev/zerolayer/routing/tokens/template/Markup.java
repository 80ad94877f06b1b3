package dev.zerolayer.routing.tokens.template;

/** markupsafe.Markup as `safe`/`escape` return it: supported only for output, truthiness, length and string tests. */
record Markup(String text) {
}
