package dev.zerolayer.cache.lookup;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.complexity.Turn;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads an Anthropic-style conversation ({@code {"system": …, "messages": [{"role", "content"}, …]}}) into the texts
 * the nodes hash, exactly as the simulated nodes extract them: a string, or content blocks concatenated without
 * separators (text blocks' text, a tool use's name and JSON input, a tool result's content; other blocks add nothing).
 * Anything malformed is an {@link InvalidRequestException} naming the field.
 */
public final class ConversationParser {

    private ConversationParser() {
    }

    public static Conversation parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new InvalidRequestException("request body is empty; expected a JSON object with messages");
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("request body is not valid UTF-8");
        }
        JsonNode root;
        try {
            root = EventCodec.mapper().readTree(body);
        } catch (JacksonException e) {
            throw new InvalidRequestException("request body is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidRequestException("request body must be a JSON object");
        }
        String system = "";
        JsonNode systemNode = root.get("system");
        if (systemNode != null && !systemNode.isNull()) {
            system = content(systemNode, "system");
        }
        JsonNode messages = root.get("messages");
        if (messages == null || messages.isNull()) {
            throw new InvalidRequestException("messages: Field required");
        }
        if (!messages.isArray() || messages.isEmpty()) {
            throw new InvalidRequestException("messages: must be a non-empty array");
        }
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String where = "messages." + i;
            if (!message.isObject()) {
                throw new InvalidRequestException(where + ": must be an object");
            }
            JsonNode role = message.get("role");
            if (role == null || !role.isString()
                    || !(role.stringValue().equals("user") || role.stringValue().equals("assistant"))) {
                throw new InvalidRequestException(where + ".role: must be one of assistant, user");
            }
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw new InvalidRequestException(where + ".content: Field required");
            }
            turns.add(new Turn(Role.parse(role.stringValue()), content(content, where + ".content")));
        }
        return new Conversation(system, turns);
    }

    private static String content(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw new InvalidRequestException(where + ": must be a string or an array of content blocks");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            String at = where + "." + i;
            if (block == null || !block.isObject() || !block.path("type").isString()) {
                throw new InvalidRequestException(at + ".type: Field required");
            }
            switch (block.get("type").stringValue()) {
                case "text" -> {
                    JsonNode value = block.get("text");
                    if (value == null || !value.isString()) {
                        throw new InvalidRequestException(at + ".text: must be a string");
                    }
                    text.append(value.stringValue());
                }
                case "tool_use" -> text.append(block.path("name").asString("")).append(
                        block.has("input") ? EventCodec.mapper().writeValueAsString(block.get("input")) : "");
                case "tool_result" -> {
                    JsonNode inner = block.get("content");
                    if (inner != null && !inner.isNull()) {
                        text.append(content(inner, at + ".content"));
                    }
                }
                default -> {
                    // images, documents and thinking blocks carry no text the nodes hash
                }
            }
        }
        return text.toString();
    }
}
