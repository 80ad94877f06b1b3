package dev.zerolayer.router.wire;

import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.tokens.PromptParts;
import tools.jackson.databind.node.ObjectNode;

/**
 * A validated client request: its API, the JSON body as sent, the model asked for, whether it streams, the
 * conversation the complexity score reads, every part that costs input tokens, the {@code metadata.user_id} /
 * {@code user} (null when absent) and the most output tokens it asks for (0 when it sets no limit).
 */
public record ClientRequest(ClientApi api, ObjectNode body, String model, boolean stream, Conversation conversation,
        PromptParts prompt, String userId, int maxOutputTokens) {
}
