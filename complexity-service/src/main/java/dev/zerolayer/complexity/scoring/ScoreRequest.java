package dev.zerolayer.complexity.scoring;

import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.complexity.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads {@code {"items":[{"id":…,"messages":[…],"system":…}]}}: at least one and at most the configured number of
 * items, each with a string or integer id and Anthropic-style messages (roles user/assistant, content a string or a list
 * of content blocks) and an optional system prompt (string or blocks). Text is taken as the router takes it: text
 * blocks' text and string tool results; other blocks count as nothing.
 */
public final class ScoreRequest {

    static final int MAX_ID_LENGTH = 256;
    private static final Set<String> ROLES = Set.of("user", "assistant");

    /** One conversation to score and the id it is answered under (a string or a number, echoed as given). */
    public record Item(JsonNode id, Conversation conversation) {
    }

    private ScoreRequest() {
    }

    /** The items of a body, or an {@link InvalidInputException} naming the first bad field. */
    public static List<Item> items(ObjectNode body, int maxItems) {
        JsonNode items = body.get("items");
        if (items == null || items.isNull()) {
            throw new InvalidInputException("items: required");
        }
        if (!items.isArray()) {
            throw new InvalidInputException("items: must be a list");
        }
        if (items.isEmpty()) {
            throw new InvalidInputException("items: at least one item is required");
        }
        if (items.size() > maxItems) {
            throw new InvalidInputException("items: at most " + maxItems + " items per request, got " + items.size());
        }
        List<Item> parsed = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            parsed.add(item(items.get(i), "items[" + i + "]"));
        }
        return parsed;
    }

    static Item item(JsonNode item, String where) {
        if (!item.isObject()) {
            throw new InvalidInputException(where + ": must be an object");
        }
        JsonNode id = item.get("id");
        if (id == null || id.isNull()) {
            throw new InvalidInputException(where + ".id: required");
        }
        if (!(id.isString() || id.isIntegralNumber()) || (id.isString() && id.stringValue().length() > MAX_ID_LENGTH)) {
            throw new InvalidInputException(where + ".id: must be a string of at most " + MAX_ID_LENGTH
                    + " characters or an integer");
        }
        String system = "";
        JsonNode systemNode = item.get("system");
        if (systemNode != null && !systemNode.isNull()) {
            system = text(systemNode, where + ".system");
        }
        JsonNode messages = item.get("messages");
        if (messages == null || messages.isNull()) {
            throw new InvalidInputException(where + ".messages: required");
        }
        if (!messages.isArray()) {
            throw new InvalidInputException(where + ".messages: must be a list");
        }
        if (messages.isEmpty()) {
            throw new InvalidInputException(where + ".messages: at least one message is required");
        }
        List<Turn> turns = new ArrayList<>(messages.size());
        for (int m = 0; m < messages.size(); m++) {
            JsonNode message = messages.get(m);
            String at = where + ".messages[" + m + "]";
            if (!message.isObject()) {
                throw new InvalidInputException(at + ": must be an object");
            }
            JsonNode role = message.get("role");
            if (role == null || role.isNull()) {
                throw new InvalidInputException(at + ".role: required");
            }
            if (!role.isString() || !ROLES.contains(role.stringValue())) {
                throw new InvalidInputException(at + ".role: must be 'user' or 'assistant'");
            }
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw new InvalidInputException(at + ".content: required");
            }
            turns.add(new Turn(Role.parse(role.stringValue()), text(content, at + ".content")));
        }
        return new Item(id, new Conversation(system, turns));
    }

    /** The text of a string or of a list of content blocks. */
    static String text(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw new InvalidInputException(where + ": must be a string or a list of content blocks");
        }
        StringBuilder text = new StringBuilder();
        for (int b = 0; b < content.size(); b++) {
            JsonNode block = content.get(b);
            String at = where + "[" + b + "]";
            if (!block.isObject()) {
                throw new InvalidInputException(at + ": must be a content block object");
            }
            JsonNode type = block.get("type");
            if (type == null || !type.isString()) {
                throw new InvalidInputException(at + ".type: required");
            }
            if (type.stringValue().equals("text")) {
                JsonNode blockText = block.get("text");
                if (blockText == null || !blockText.isString()) {
                    throw new InvalidInputException(at + ".text: must be a string");
                }
                text.append(text.isEmpty() ? "" : "\n").append(blockText.stringValue());
            } else if (type.stringValue().equals("tool_result") && block.get("content") != null
                    && block.get("content").isString()) {
                text.append(text.isEmpty() ? "" : "\n").append(block.get("content").stringValue());
            }
        }
        return text.toString();
    }
}
