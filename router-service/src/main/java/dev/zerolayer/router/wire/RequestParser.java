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
    private static final Set<String> OPENAI_ROLES = Set.of("system", "developer", "user", "assistant", "tool",
            "function");
    private static final Set<String> RESPONSES_ROLES = Set.of("system", "developer", "user", "assistant");

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

    // ------------------------------------------------------------------ OpenAI Chat Completions

    /** Parses a {@code /v1/chat/completions} body. */
    public static ClientRequest openAi(byte[] raw) {
        ObjectNode body = object(raw);
        String model = requiredString(body, "model");
        boolean stream = optionalBoolean(body, "stream");
        int maxTokens = optionalPositiveInt(body, "max_completion_tokens");
        int legacyMax = optionalPositiveInt(body, "max_tokens");
        optionalPositiveInt(body, "n");
        PromptBuilder prompt = new PromptBuilder();
        JsonNode messages = messages(body);
        for (int i = 0; i < messages.size(); i++) {
            String where = "messages[" + i + "]";
            ObjectNode message = object(messages.get(i), where);
            String role = requiredString(message, "role", where + ".role");
            if (!OPENAI_ROLES.contains(role)) {
                throw ApiException.invalid(where + ".role: unknown role; expected one of " + OPENAI_ROLES.stream()
                        .sorted().toList());
            }
            List<String> parts = new ArrayList<>(2);
            JsonNode content = message.get("content");
            if (content != null && !content.isNull()) {
                parts.add(openAiContent(content, where + ".content", prompt));
            }
            JsonNode calls = message.get("tool_calls");
            if (calls != null && calls.isArray()) {
                for (JsonNode call : calls) {
                    parts.add(PromptBuilder.toolCall(call.path("function").path("name").asString(""),
                            call.path("function").path("arguments").asString("")));
                }
            }
            String text = PromptBuilder.join(parts);
            if (role.equals("system") || role.equals("developer")) {
                prompt.system(text);
            } else {
                prompt.message(PromptBuilder.role(role), text);
            }
        }
        definitions(body.get("tools"), "tools", prompt);
        String user = body.path("user").isString() ? body.get("user").stringValue() : null;
        return new ClientRequest(ClientApi.OPENAI, body, model, stream, prompt.conversation(), prompt.prompt(), user,
                maxTokens > 0 ? maxTokens : legacyMax);
    }

    /** The text of an OpenAI content: a string or parts (text and refusal parts; images and files priced). */
    private static String openAiContent(JsonNode content, String where, PromptBuilder prompt) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": Input should be a string or a list of content parts");
        }
        List<String> parts = new ArrayList<>(content.size());
        for (int i = 0; i < content.size(); i++) {
            String at = where + "[" + i + "]";
            ObjectNode part = object(content.get(i), at);
            JsonNode type = part.get("type");
            if (type == null || !type.isString()) {
                throw ApiException.invalid(at + ".type: Field required");
            }
            switch (type.stringValue()) {
                case "text", "input_text", "output_text" -> parts.add(requiredText(part, "text", at));
                case "refusal" -> parts.add(part.path("refusal").asString(""));
                case "image_url" -> {
                    JsonNode image = part.path("image_url");
                    String url = image.isString() ? image.stringValue() : image.path("url").asString("");
                    prompt.counted(MediaTokens.openAiImage(url.startsWith("data:") ? ImageSize.ofBase64(url)
                            : ImageSize.UNKNOWN, "low".equals(image.path("detail").asString(""))));
                }
                case "input_image" -> {
                    String url = part.path("image_url").asString("");
                    prompt.counted(MediaTokens.openAiImage(url.startsWith("data:") ? ImageSize.ofBase64(url)
                            : ImageSize.UNKNOWN, "low".equals(part.path("detail").asString(""))));
                }
                case "file", "input_file" -> {
                    JsonNode file = part.has("file") ? part.get("file") : part;
                    String data = file.path("file_data").asString("");
                    int comma = data.indexOf(',');
                    prompt.counted(MediaTokens.pdf(comma >= 0 ? data.substring(comma + 1) : data));
                }
                default -> {
                    // audio and parts of later API versions go on as sent
                }
            }
        }
        return PromptBuilder.join(parts);
    }

    // ------------------------------------------------------------------ OpenAI Responses

    /** Parses a {@code /v1/responses} body (the stateless subset: no stored responses or conversations). */
    public static ClientRequest responses(byte[] raw) {
        return responses(object(raw));
    }

    /** As {@link #responses(byte[])}, for a body already read as an object (its item references resolved). */
    public static ClientRequest responses(ObjectNode body) {
        String model = requiredString(body, "model");
        boolean stream = optionalBoolean(body, "stream");
        int maxTokens = optionalPositiveInt(body, "max_output_tokens");
        for (String stateful : List.of("previous_response_id", "conversation")) {
            JsonNode value = body.get(stateful);
            if (value != null && !value.isNull()) {
                throw ApiException.invalid(stateful + ": not supported; this gateway stores no responses, so send "
                        + "the whole conversation in 'input' (and 'store': false)");
            }
        }
        PromptBuilder prompt = new PromptBuilder();
        JsonNode instructions = body.get("instructions");
        if (instructions != null && !instructions.isNull()) {
            if (!instructions.isString()) {
                throw ApiException.invalid("instructions: Input should be a valid string");
            }
            prompt.system(instructions.stringValue());
        }
        JsonNode input = body.get("input");
        if (input == null || input.isNull()) {
            throw ApiException.invalid("input: Field required");
        }
        if (input.isString()) {
            prompt.message(Role.USER, input.stringValue());
        } else if (input.isArray()) {
            if (input.isEmpty()) {
                throw ApiException.invalid("input: at least one input item is required");
            }
            for (int i = 0; i < input.size(); i++) {
                responsesItem(object(input.get(i), "input[" + i + "]"), "input[" + i + "]", prompt);
            }
        } else {
            throw ApiException.invalid("input: Input should be a string or a list of input items");
        }
        definitions(body.get("tools"), "tools", prompt);
        String user = body.path("user").isString() ? body.get("user").stringValue()
                : body.path("safety_identifier").isString() ? body.get("safety_identifier").stringValue() : null;
        return new ClientRequest(ClientApi.RESPONSES, body, model, stream, prompt.conversation(), prompt.prompt(),
                user, maxTokens);
    }

    private static void responsesItem(ObjectNode item, String where, PromptBuilder prompt) {
        String type = item.path("type").asString(item.has("role") ? "message" : "");
        switch (type) {
            case "message" -> {
                String role = requiredString(item, "role", where + ".role");
                if (!RESPONSES_ROLES.contains(role)) {
                    throw ApiException.invalid(where + ".role: Input should be 'user', 'assistant', 'system' or "
                            + "'developer'");
                }
                JsonNode content = item.get("content");
                if (content == null || content.isNull()) {
                    throw ApiException.invalid(where + ".content: Field required");
                }
                String text = openAiContent(content, where + ".content", prompt);
                if (role.equals("system") || role.equals("developer")) {
                    prompt.system(text);
                } else {
                    prompt.message(PromptBuilder.role(role), text);
                }
            }
            case "function_call" -> {
                requiredString(item, "call_id", where + ".call_id");
                String name = requiredString(item, "name", where + ".name");
                JsonNode arguments = item.get("arguments");
                if (arguments == null || !arguments.isString()) {
                    throw ApiException.invalid(where + ".arguments: Input should be a valid string");
                }
                prompt.message(Role.ASSISTANT, PromptBuilder.toolCall(name, arguments.stringValue()));
            }
            case "function_call_output" -> {
                requiredString(item, "call_id", where + ".call_id");
                JsonNode output = item.get("output");
                if (output == null || output.isNull()) {
                    throw ApiException.invalid(where + ".output: Field required");
                }
                prompt.message(Role.TOOL, output.isString() ? output.stringValue()
                        : openAiContent(output, where + ".output", prompt));
            }
            case "item_reference" -> throw ApiException.invalid(where + ": item_reference is not supported; this "
                    + "gateway stores no items, so send the item itself");
            case "" -> throw ApiException.invalid(where + ".type: Field required");
            default -> {
                // reasoning items and items of hosted tools: the translation decides whether they can be served
            }
        }
    }

    // ------------------------------------------------------------------ OpenAI legacy Completions

    /** Parses a {@code /v1/completions} body: a prompt as a string, strings, or token ids. */
    public static ClientRequest completions(byte[] raw) {
        ObjectNode body = object(raw);
        String model = requiredString(body, "model");
        boolean stream = optionalBoolean(body, "stream");
        int maxTokens = optionalPositiveInt(body, "max_tokens");
        optionalPositiveInt(body, "n");
        PromptBuilder prompt = new PromptBuilder();
        JsonNode value = body.get("prompt");
        if (value == null || value.isNull()) {
            throw ApiException.invalid("prompt: Field required");
        }
        if (value.isString()) {
            prompt.message(Role.USER, value.stringValue());
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                JsonNode item = value.get(i);
                if (item.isString()) {
                    prompt.message(Role.USER, item.stringValue());
                } else if (item.isIntegralNumber()) {
                    prompt.counted(1);
                } else if (item.isArray()) {
                    prompt.counted(item.size());
                } else {
                    throw ApiException.invalid("prompt[" + i + "]: Input should be a string, a token id or a list "
                            + "of token ids");
                }
            }
        } else {
            throw ApiException.invalid("prompt: Input should be a string or a list");
        }
        String user = body.path("user").isString() ? body.get("user").stringValue() : null;
        return new ClientRequest(ClientApi.COMPLETIONS, body, model, stream, prompt.conversation(), prompt.prompt(),
                user, maxTokens > 0 ? maxTokens : 16);
    }

    // ------------------------------------------------------------------ shared checks

    /** Tool definitions count as tokens (an array of objects; each costs its JSON). */
    private static void definitions(JsonNode tools, String where, PromptBuilder prompt) {
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

    private static ObjectNode object(JsonNode node, String where) {
        if (node == null || !node.isObject()) {
            throw ApiException.invalid(where + ": Input should be an object");
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

    private static String requiredText(ObjectNode part, String field, String where) {
        JsonNode text = part.get(field);
        if (text == null || !text.isString()) {
            throw ApiException.invalid(where + "." + field + ": Input should be a valid string");
        }
        return text.stringValue();
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

    private static int positiveInt(JsonNode value, String field) {
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1) {
            throw ApiException.invalid(field + ": Input should be a positive integer");
        }
        return value.intValue();
    }

    /** A positive integer field, or 0 when absent or null. */
    private static int optionalPositiveInt(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? 0 : positiveInt(value, field);
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
