package dev.zerolayer.router.api;

import dev.zerolayer.routing.complexity.Conversation;
import tools.jackson.databind.node.ObjectNode;

/**
 * A validated client request: its API, the JSON body as sent, the model asked for, whether it streams, the
 * conversation the decision reads and the {@code metadata.user_id} / {@code user} (null when absent).
 */
public record ClientRequest(ClientApi api, ObjectNode body, String model, boolean stream, Conversation conversation,
        String userId) {
}
