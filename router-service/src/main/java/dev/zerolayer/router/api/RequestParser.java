package dev.zerolayer.router.api;

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
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a raw client body into a {@link ClientRequest} or a 400 naming the first problem (never quoting the prompt):
 * strict UTF-8, one JSON object, the fields each API requires with the right types, known roles, non-empty messages.
 */
public final class RequestParser {

    private static final Set<String> ANTHROPIC_ROLES = Set.of("user", "assistant");
    private static final Set<String> OPENAI_ROLES = Set.of("system", "developer", "user", "assistant", "tool",
            "function");

    private RequestParser() {
    }

    /** Parses a {@code /v1/messages} (or {@code count_tokens} when {@code requireMaxTokens} is false) body. */
    public static ClientRequest anthropic(byte[] raw, boolean requireMaxTokens) {
        ObjectNode body = object(raw);
        String model = requiredString(body, "model");
        if (requireMaxTokens) {
            JsonNode maxTokens = body.get("max_tokens");
            if (maxTokens == null || maxTokens.isNull()) {
                throw ApiException.invalid("max_tokens: Field required");
            }
            if (!maxTokens.isIntegralNumber() || !maxTokens.canConvertToInt() || maxTokens.intValue() < 1) {
                throw ApiException.invalid("max_tokens: Input should be a positive integer");
            }
        }
        boolean stream = optionalBoolean(body, "stream");
        String system = "";
        JsonNode systemNode = body.get("system");
        if (systemNode != null && !systemNode.isNull()) {
            system = contentText(systemNode, "system");
        }
        List<Turn> turns = new ArrayList<>();
        JsonNode messages = messages(body);
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String where = "messages." + i;
            if (!message.isObject()) {
                throw ApiException.invalid(where + ": Input should be an object");
            }
            String role = requiredString((ObjectNode) message, "role", where + ".role");
            if (!ANTHROPIC_ROLES.contains(role)) {
                throw ApiException.invalid(where + ".role: Input should be 'user' or 'assistant'");
            }
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw ApiException.invalid(where + ".content: Field required");
            }
            turns.add(new Turn(Role.parse(role), contentText(content, where + ".content")));
        }
        String userId = null;
        JsonNode metadata = body.get("metadata");
        if (metadata != null && metadata.isObject() && metadata.get("user_id") != null
                && metadata.get("user_id").isString()) {
            userId = metadata.get("user_id").stringValue();
        }
        return new ClientRequest(ClientApi.ANTHROPIC, body, model, stream, new Conversation(system, turns), userId);
    }

    /** Parses a {@code /v1/chat/completions} body. */
    public static ClientRequest openAi(byte[] raw) {
        ObjectNode body = object(raw);
        String model = requiredString(body, "model");
        boolean stream = optionalBoolean(body, "stream");
        for (String field : List.of("max_tokens", "max_completion_tokens", "n")) {
            JsonNode value = body.get(field);
            if (value != null && !value.isNull() && (!value.isIntegralNumber() || !value.canConvertToInt()
                    || value.intValue() < 1)) {
                throw ApiException.invalid(field + ": Input should be a positive integer");
            }
        }
        StringBuilder system = new StringBuilder();
        List<Turn> turns = new ArrayList<>();
        JsonNode messages = messages(body);
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String where = "messages[" + i + "]";
            if (!message.isObject()) {
                throw ApiException.invalid(where + ": Input should be an object");
            }
            String role = requiredString((ObjectNode) message, "role", where + ".role");
            if (!OPENAI_ROLES.contains(role)) {
                throw ApiException.invalid(where + ".role: unknown role; expected one of " + OPENAI_ROLES.stream()
                        .sorted().toList());
            }
            JsonNode content = message.get("content");
            String text = content == null || content.isNull() ? "" : contentText(content, where + ".content");
            if (role.equals("system") || role.equals("developer")) {
                system.append(system.isEmpty() ? "" : "\n").append(text);
            } else {
                turns.add(new Turn(Role.parse(role), text));
            }
        }
        String user = body.get("user") != null && body.get("user").isString() ? body.get("user").stringValue()
                : null;
        return new ClientRequest(ClientApi.OPENAI, body, model, stream,
                new Conversation(system.toString(), turns), user);
    }

    /** Strictly decodes UTF-8 and parses one JSON object. */
    static ObjectNode object(byte[] raw) {
        if (raw == null || raw.length == 0) {
            throw ApiException.invalid("request body is empty; expected a JSON object");
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw));
        } catch (CharacterCodingException e) {
            throw ApiException.invalid("request body is not valid UTF-8");
        }
        JsonNode node;
        try {
            node = EventCodec.mapper().readTree(raw);
        } catch (JacksonException e) {
            var location = e.getLocation();
            throw ApiException.invalid(location == null
                    ? "request body is not valid JSON or exceeds the JSON limits (nesting, number or string length)"
                    : "request body is not valid JSON (line " + location.getLineNr() + ", column "
                            + location.getColumnNr() + ")");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.invalid("request body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    private static JsonNode messages(ObjectNode body) {
        JsonNode messages = body.get("messages");
        if (messages == null || messages.isNull()) {
            throw ApiException.invalid("messages: Field required");
        }
        if (!messages.isArray()) {
            throw ApiException.invalid("messages: Input should be a valid list");
        }
        if (messages.isEmpty()) {
            throw ApiException.invalid("messages: at least one message is required");
        }
        return messages;
    }

    /** The text of a string or of an array of content blocks (text blocks' text; other blocks count as nothing). */
    private static String contentText(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": Input should be a string or a list of content blocks");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            if (!block.isObject() || block.get("type") == null || !block.get("type").isString()) {
                throw ApiException.invalid(where + "." + i + ".type: Field required");
            }
            String type = block.get("type").stringValue();
            if (type.equals("text")) {
                JsonNode blockText = block.get("text");
                if (blockText == null || !blockText.isString()) {
                    throw ApiException.invalid(where + "." + i + ".text: Input should be a valid string");
                }
                text.append(text.isEmpty() ? "" : "\n").append(blockText.stringValue());
            } else if (type.equals("tool_result") && block.get("content") != null
                    && block.get("content").isString()) {
                text.append(text.isEmpty() ? "" : "\n").append(block.get("content").stringValue());
            }
        }
        return text.toString();
    }

    private static String requiredString(ObjectNode body, String field) {
        return requiredString(body, field, field);
    }

    private static String requiredString(ObjectNode body, String field, String where) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.invalid(where + ": Field required");
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw ApiException.invalid(where + ": Input should be a non-empty string");
        }
        return value.stringValue();
    }

    private static boolean optionalBoolean(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw ApiException.invalid(field + ": Input should be a valid boolean");
        }
        return value.booleanValue();
    }
}
