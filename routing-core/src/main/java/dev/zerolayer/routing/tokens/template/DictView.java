package dev.zerolayer.routing.tokens.template;

import java.util.List;

/** The result of dict.items()/keys()/values(): iterates like a list, prints as dict_items([...]). */
record DictView(String kind, List<Object> items) {
}
