package dev.zerolayer.simulator.node;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates and reads request bodies of the Anthropic Messages and OpenAI Chat Completions APIs; anything malformed is
 * an {@link ApiException} 400 naming the field (never echoing the prompt).
 */
public final class RequestParser {

    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final Set<String> ANTHROPIC_ROLES = Set.of("user", "assistant");
    private static final Set<String> OPENAI_ROLES = Set.of("system", "developer", "user", "assistant", "tool",
            "function");

    private final int defaultMaxTokens;

    /** @param defaultMaxTokens the limit of an OpenAI request that sets none */
    public RequestParser(int defaultMaxTokens) {
        this.defaultMaxTokens = defaultMaxTokens;
    }

    public ChatRequest parse(UpstreamProtocol protocol, byte[] body) {
        JsonNode root = readObject(body);
        return protocol == UpstreamProtocol.ANTHROPIC ? anthropic(root) : openAi(root);
    }

    private static JsonNode readObject(byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.invalid("request body is empty; expected a JSON object", null);
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.invalid("request body is not valid JSON", null);
        }
        if (root == null || !root.isObject()) {
            throw ApiException.invalid("request body must be a JSON object", null);
        }
        return root;
    }

    private ChatRequest anthropic(JsonNode root) {
        String model = model(root);
        JsonNode maxTokens = root.get("max_tokens");
        if (maxTokens == null || maxTokens.isNull()) {
            throw ApiException.invalid("max_tokens: Field required", "max_tokens");
        }
        int max = positiveInt(maxTokens, "max_tokens");
        boolean stream = bool(root, "stream");
        List<String> texts = new ArrayList<>();
        int messages = 0;
        JsonNode system = root.get("system");
        if (system != null && !system.isNull()) {
            String text = anthropicContent(system, "system");
            if (!text.isEmpty()) {
                texts.add(text);
                messages++;
            }
        }
        JsonNode list = messagesArray(root);
        for (int i = 0; i < list.size(); i++) {
            JsonNode message = list.get(i);
            String where = "messages." + i;
            role(message, where, ANTHROPIC_ROLES);
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw ApiException.invalid(where + ".content: Field required", where + ".content");
            }
            texts.add(anthropicContent(content, where + ".content"));
            messages++;
        }
        return new ChatRequest(model, max, stream, false, texts, messages);
    }

    private ChatRequest openAi(JsonNode root) {
        String model = model(root);
        JsonNode maxNode = root.get("max_completion_tokens");
        String maxField = "max_completion_tokens";
        if (maxNode == null || maxNode.isNull()) {
            maxNode = root.get("max_tokens");
            maxField = "max_tokens";
        }
        int max = maxNode == null || maxNode.isNull() ? defaultMaxTokens : positiveInt(maxNode, maxField);
        JsonNode n = root.get("n");
        if (n != null && !n.isNull() && !(n.isIntegralNumber() && n.canConvertToInt() && n.intValue() == 1)) {
            throw ApiException.invalid("n: only n=1 is supported", "n");
        }
        boolean stream = bool(root, "stream");
        boolean includeUsage = false;
        JsonNode options = root.get("stream_options");
        if (options != null && !options.isNull()) {
            if (!stream) {
                throw ApiException.invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                        "stream_options");
            }
            if (!options.isObject()) {
                throw ApiException.invalid("stream_options: must be an object", "stream_options");
            }
            includeUsage = bool(options, "include_usage");
        }
        JsonNode list = messagesArray(root);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode message = list.get(i);
            String where = "messages[" + i + "]";
            role(message, where, OPENAI_ROLES);
            JsonNode content = message.get("content");
            texts.add(content == null || content.isNull() ? "" : openAiContent(content, where + ".content"));
        }
        return new ChatRequest(model, max, stream, includeUsage, texts, list.size());
    }

    private static String model(JsonNode root) {
        JsonNode model = root.get("model");
        if (model == null || model.isNull()) {
            throw ApiException.invalid("model: Field required", "model");
        }
        if (!model.isString() || model.stringValue().isBlank()) {
            throw ApiException.invalid("model: must be a non-empty string", "model");
        }
        return model.stringValue();
    }

    private static JsonNode messagesArray(JsonNode root) {
        JsonNode messages = root.get("messages");
        if (messages == null || messages.isNull()) {
            throw ApiException.invalid("messages: Field required", "messages");
        }
        if (!messages.isArray() || messages.isEmpty()) {
            throw ApiException.invalid("messages: must be a non-empty array", "messages");
        }
        return messages;
    }

    private static String role(JsonNode message, String where, Set<String> allowed) {
        if (message == null || !message.isObject()) {
            throw ApiException.invalid(where + ": must be an object", where);
        }
        JsonNode role = message.get("role");
        if (role == null || !role.isString() || !allowed.contains(role.stringValue())) {
            throw ApiException.invalid(where + ".role: must be one of " + String.join(", ", allowed.stream()
                    .sorted().toList()), where + ".role");
        }
        return role.stringValue();
    }

    private static int positiveInt(JsonNode node, String field) {
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw ApiException.invalid(field + ": must be an integer", field);
        }
        if (node.intValue() < 1) {
            throw ApiException.invalid(field + ": must be greater than or equal to 1", field);
        }
        return node.intValue();
    }

    private static boolean bool(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw ApiException.invalid(field + ": must be a boolean", field);
        }
        return node.booleanValue();
    }

    /** Text of an Anthropic content: a string or content blocks (text, tool use input, tool result content). */
    private static String anthropicContent(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": must be a string or an array of content blocks", where);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            String at = where + "." + i;
            if (block == null || !block.isObject() || !block.path("type").isString()) {
                throw ApiException.invalid(at + ".type: Field required", at + ".type");
            }
            switch (block.get("type").stringValue()) {
                case "text" -> {
                    JsonNode value = block.get("text");
                    if (value == null || !value.isString()) {
                        throw ApiException.invalid(at + ".text: Field required", at + ".text");
                    }
                    text.append(value.stringValue());
                }
                case "tool_use" -> text.append(block.path("name").asString("")).append(
                        block.has("input") ? JSON.writeValueAsString(block.get("input")) : "");
                case "tool_result" -> {
                    JsonNode inner = block.get("content");
                    if (inner != null && !inner.isNull()) {
                        text.append(anthropicContent(inner, at + ".content"));
                    }
                }
                default -> {
                    // images, documents and thinking blocks carry no prompt text the simulator counts
                }
            }
        }
        return text.toString();
    }

    /** Text of an OpenAI content: a string or content parts (text parts counted). */
    private static String openAiContent(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": must be a string or an array of content parts", where);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String at = where + "[" + i + "]";
            if (part == null || !part.isObject() || !part.path("type").isString()) {
                throw ApiException.invalid(at + ".type: Field required", at + ".type");
            }
            if ("text".equals(part.get("type").stringValue())) {
                JsonNode value = part.get("text");
                if (value == null || !value.isString()) {
                    throw ApiException.invalid(at + ".text: Field required", at + ".text");
                }
                text.append(value.stringValue());
            }
        }
        return text.toString();
    }
}
