package dev.zerolayer.router.answer;

import tools.jackson.databind.node.ObjectNode;

/** Where a Responses answer's finished output items go, and the tail every output item id gets. */
@FunctionalInterface
public interface ItemSink {

    /** Keeps a finished output item (one with an id). */
    void remember(ObjectNode item);

    /** Appended to every output item id minted for the sink (says which replica holds the item); empty: nothing. */
    default String idTail() {
        return "";
    }
}
