package dev.zerolayer.router.answer;

import tools.jackson.databind.node.ObjectNode;

/** Where a Responses answer's finished output items go, and the tail every output item id gets. */
@FunctionalInterface
public interface ItemSink {

    /** Keeps a finished output item (one with an id). */
    void remember(ObjectNode item);

    /**
     * Keeps a finished response for a later {@code previous_response_id} or retrieval: the client's request as the node
     * got it (its input with the conversation before it), and the response object (its id and output items).
     */
    default void answered(ObjectNode request, ObjectNode response) {
    }

    /** Appended to every output item id minted for the sink (says which replica holds the item); empty: nothing. */
    default String idTail() {
        return "";
    }
}
