package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.tokens.ImageSize;
import dev.zerolayer.routing.tokens.MediaTokens;
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
 * Turns a raw client body into a {@link ClientRequest} or a 400 naming the first problem (never quoting the prompt).
 * It checks only what routing needs and what the API itself rejects (strict UTF-8, one JSON object, the fields each API
 * requires with the right types, known roles, content blocks with a type); every other field, known or not, goes on
 * as sent. It reads every part that costs input tokens: texts, tool calls and results, tool definitions, images.
 */
public final class RequestParser {

    private static final Set<String> ANTHROPIC_ROLES = Set.of("user", "assistant", "system");

    private RequestParser() {
    }

    /** Parses the body of a request to {@code api}'s path. */
    public static ClientRequest parse(ClientApi api, byte[] raw) {
        return switch (api) {
            case ANTHROPIC -> anthropic(raw, true);
            case OPENAI -> openAi(raw);
            case RESPONSES -> responses(raw);
            case COMPLETIONS -> completions(raw);
        };
    }

    // ------------------------------------------------------------------ Anthropic Messages

    /** Parses a {@code /v1/messages} (or {@code count_tokens} when {@code requireMaxTokens} is false) body. */
    public static ClientRequest anthropic(byte[] raw, boolean requireMaxTokens) {
        ObjectNode body = object(raw);
        String model = requiredString(body, "model");
        int maxTokens = 0;
        if (requireMaxTokens) {
            JsonNode value = body.get("max_tokens");
            if (value == null || value.isNull()) {
                throw ApiException.invalid("max_tokens: Field required");
            }
            maxTokens = positiveInt(value, "max_tokens");
        }
        boolean stream = optionalBoolean(body, "stream");
        PromptBuilder prompt = new PromptBuilder();
        JsonNode system = body.get("system");
        prompt.system(system == null || system.isNull() ? "" : anthropicContent(system, "system", prompt));
        JsonNode messages = messages(body);
        for (int i = 0; i < messages.size(); i++) {
            String where = "messages." + i;
            ObjectNode message = object(messages.get(i), where);
            String role = requiredString(message, "role", where + ".role");
            if (!ANTHROPIC_ROLES.contains(role)) {
                throw ApiException.invalid(where + ".role: Input should be 'user', 'assistant' or 'system'");
            }
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw ApiException.invalid(where + ".content: Field required");
            }
            String text = anthropicContent(content, where + ".content", prompt);
            if (role.equals("system")) {
                prompt.system(text);
            } else {
                prompt.message(PromptBuilder.role(role), text);
            }
        }
        definitions(body.get("tools"), "tools", prompt);
        String userId = null;
        JsonNode metadata = body.get("metadata");
        if (metadata != null && metadata.path("user_id").isString()) {
            userId = metadata.get("user_id").stringValue();
        }
        return new ClientRequest(ClientApi.ANTHROPIC, body, model, stream, prompt.conversation(), prompt.prompt(),
                userId, maxTokens);
    }

    /**
     * The text of an Anthropic content (a string, or blocks: text, a tool call's name and input, a tool result's
     * content, a text document), joined by newlines; images and PDFs are priced into the prompt's counted tokens.
     */
    private static String anthropicContent(JsonNode content, String where, PromptBuilder prompt) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": Input should be a valid string or a list of content blocks");
        }
        List<String> parts = new ArrayList<>(content.size());
        for (int i = 0; i < content.size(); i++) {
            String at = where + "." + i;
            ObjectNode block = object(content.get(i), at);
            JsonNode type = block.get("type");
            if (type == null || !type.isString()) {
                throw ApiException.invalid(at + ".type: Field required");
            }
            switch (type.stringValue()) {
                case "text" -> {
                    JsonNode text = block.get("text");
                    if (text == null || !text.isString()) {
                        throw ApiException.invalid(at + ".text: Input should be a valid string");
                    }
                    parts.add(text.stringValue());
                }
                case "tool_use", "server_tool_use" -> parts.add(PromptBuilder.toolCall(
                        block.path("name").asString(""), block.has("input")
                                ? EventCodec.mapper().writeValueAsString(block.get("input")) : ""));
                case "tool_result" -> {
                    JsonNode inner = block.get("content");
                    if (inner != null && !inner.isNull()) {
                        parts.add(anthropicContent(inner, at + ".content", prompt));
                    }
                }
                case "image" -> prompt.counted(MediaTokens.anthropicImage(imageSize(block.path("source"))));
                case "document" -> {
                    JsonNode source = block.path("source");
                    String kind = source.path("type").asString("");
                    if (kind.equals("text") && source.path("data").isString()) {
                        parts.add(source.get("data").stringValue());
                    } else if (kind.equals("content") && source.has("content")) {
                        parts.add(anthropicContent(source.get("content"), at + ".source.content", prompt));
                    } else {
                        prompt.counted(MediaTokens.pdf(kind.equals("base64") ? source.path("data").asString("")
                                : null));
                    }
                }
                default -> {
                    // thinking, redacted thinking, search results and blocks of later API versions go on as sent
                }
            }
        }
        return PromptBuilder.join(parts);
    }

    private static ImageSize imageSize(JsonNode source) {
        return source.path("type").asString("").equals("base64") ? ImageSize.ofBase64(source.path("data").asString(""))
                : ImageSize.UNKNOWN;
    }

    // ------------------------------------------------------------------ OpenAI APIs (OpenAiRequests)

    /** Parses a {@code /v1/chat/completions} body. */
    public static ClientRequest openAi(byte[] raw) {
        return OpenAiRequests.chat(object(raw));
    }

    /** Parses a {@code /v1/responses} body (no conversations; a previous response's items already in its input). */
    public static ClientRequest responses(byte[] raw) {
        return OpenAiRequests.responses(object(raw));
    }

    /** As {@link #responses(byte[])}, for a body already read as an object (its item references resolved). */
    public static ClientRequest responses(ObjectNode body) {
        return OpenAiRequests.responses(body);
    }

    /** Parses a {@code /v1/completions} body: a prompt as a string, strings, or token ids. */
    public static ClientRequest completions(byte[] raw) {
        return OpenAiRequests.completions(object(raw));
    }

    // ------------------------------------------------------------------ shared checks

    /** Tool definitions count as tokens (an array of objects; each costs its JSON). */
    static void definitions(JsonNode tools, String where, PromptBuilder prompt) {
        if (tools == null || tools.isNull()) {
            return;
        }
        if (!tools.isArray()) {
            throw ApiException.invalid(where + ": Input should be a valid list");
        }
        for (int i = 0; i < tools.size(); i++) {
            prompt.definition(object(tools.get(i), where + "." + i));
        }
    }

    /** Strictly decodes UTF-8 and parses one JSON object. */
    public static ObjectNode object(byte[] raw) {
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

    static ObjectNode object(JsonNode node, String where) {
        if (node == null || !node.isObject()) {
            throw ApiException.invalid(where + ": Input should be an object");
        }
        return (ObjectNode) node;
    }

    static JsonNode messages(ObjectNode body) {
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

    static String requiredText(ObjectNode part, String field, String where) {
        JsonNode text = part.get(field);
        if (text == null || !text.isString()) {
            throw ApiException.invalid(where + "." + field + ": Input should be a valid string");
        }
        return text.stringValue();
    }

    static String requiredString(ObjectNode body, String field) {
        return requiredString(body, field, field);
    }

    static String requiredString(ObjectNode body, String field, String where) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.invalid(where + ": Field required");
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw ApiException.invalid(where + ": Input should be a non-empty string");
        }
        return value.stringValue();
    }

    static int positiveInt(JsonNode value, String field) {
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1) {
            throw ApiException.invalid(field + ": Input should be a positive integer");
        }
        return value.intValue();
    }

    /** A positive integer field, or 0 when absent or null. */
    static int optionalPositiveInt(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? 0 : positiveInt(value, field);
    }

    static boolean optionalBoolean(ObjectNode body, String field) {
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
