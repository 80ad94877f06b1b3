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
 * Validates and reads request bodies of the Anthropic Messages, OpenAI Chat Completions and legacy Completions APIs;
 * anything malformed is an {@link ApiException} 400 naming the field (never echoing the prompt). A message's parts are
 * joined by newlines (text, a tool call's name and input JSON, a tool result's text), as the router joins them for
 * prefix hashing.
 */
public final class RequestParser {

    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final Set<String> ANTHROPIC_ROLES = Set.of("user", "assistant", "system");
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

    /** Parses a legacy {@code /v1/completions} body (a prompt string or strings; 16 tokens unless told). */
    public ChatRequest completions(byte[] body) {
        JsonNode root = readObject(body);
        String model = model(root);
        JsonNode maxNode = root.get("max_tokens");
        int max = maxNode == null || maxNode.isNull() ? 16 : positiveInt(maxNode, "max_tokens");
        boolean stream = bool(root, "stream");
        boolean includeUsage = stream && root.path("stream_options").path("include_usage").asBoolean(false);
        int n = choices(root);
        JsonNode prompt = root.get("prompt");
        List<String> texts = new ArrayList<>();
        if (prompt == null || prompt.isNull()) {
            throw ApiException.invalid("prompt: Field required", "prompt");
        } else if (prompt.isString()) {
            texts.add(prompt.stringValue());
        } else if (prompt.isArray()) {
            for (JsonNode item : prompt) {
                texts.add(item.isString() ? item.stringValue() : JSON.writeValueAsString(item));
            }
        } else {
            throw ApiException.invalid("prompt: must be a string or an array", "prompt");
        }
        return new ChatRequest(model, max, stream, includeUsage, texts, texts.size(), List.of(), List.of(),
                ChatRequest.ToolChoice.AUTO, ChatRequest.Thinking.OFF, stops(root.get("stop")), n, false,
                texts.isEmpty() ? "" : texts.get(texts.size() - 1), true, minTokens(root, max), null);
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
            texts.add(text);
            if (!text.isEmpty()) {
                messages++;
            }
        } else {
            texts.add("");
        }
        JsonNode list = messagesArray(root);
        String latestUser = "";
        boolean afterToolResult = false;
        String prefill = null;
        for (int i = 0; i < list.size(); i++) {
            JsonNode message = list.get(i);
            String where = "messages." + i;
            String role = role(message, where, ANTHROPIC_ROLES);
            JsonNode content = message.get("content");
            if (content == null || content.isNull()) {
                throw ApiException.invalid(where + ".content: Field required", where + ".content");
            }
            String text = anthropicContent(content, where + ".content");
            texts.add(text);
            if (!role.equals("system") || !text.isEmpty()) {
                messages++;
            }
            if (role.equals("user")) {
                latestUser = userText(content);
                afterToolResult = hasBlock(content, "tool_result");
            } else if (role.equals("assistant")) {
                afterToolResult = false;
            }
            prefill = role.equals("assistant") && i == list.size() - 1 ? anthropicPrefill(content) : null;
        }
        List<ChatRequest.Tool> tools = new ArrayList<>();
        List<String> definitions = new ArrayList<>();
        JsonNode toolList = root.get("tools");
        if (toolList != null && toolList.isArray()) {
            for (JsonNode tool : toolList) {
                definitions.add(JSON.writeValueAsString(tool));
                if (tool.path("name").isString() && (!tool.has("type") || tool.path("type").asString("").equals(
                        "custom"))) {
                    tools.add(new ChatRequest.Tool(tool.get("name").stringValue(), tool.path("input_schema")));
                }
            }
        }
        ChatRequest.ToolChoice choice = ChatRequest.ToolChoice.AUTO;
        JsonNode toolChoice = root.get("tool_choice");
        if (toolChoice != null && toolChoice.isObject()) {
            choice = switch (toolChoice.path("type").asString("auto")) {
                case "none" -> new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.NONE, null);
                case "any" -> new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.ANY, null);
                case "tool" -> new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.TOOL,
                        toolChoice.path("name").asString(""));
                default -> ChatRequest.ToolChoice.AUTO;
            };
        }
        JsonNode thinking = root.path("thinking");
        String thinkingType = thinking.path("type").asString("disabled");
        ChatRequest.Thinking think = thinkingType.equals("enabled") || thinkingType.equals("adaptive")
                ? new ChatRequest.Thinking(true, thinking.path("display").asString("").equals("omitted"))
                : ChatRequest.Thinking.OFF;
        return new ChatRequest(model, max, stream, false, texts, messages, definitions, tools, choice, think,
                stops(root.get("stop_sequences")), 1, afterToolResult, latestUser, false, minTokens(root, max),
                prefill);
    }

    /**
     * The text a trailing assistant message prefills (null when it holds no text); like the Messages API, text ending
     * in whitespace is refused.
     */
    private static String anthropicPrefill(JsonNode content) {
        String text = content.isString() ? content.stringValue() : null;
        if (text == null) {
            StringBuilder joined = new StringBuilder();
            for (JsonNode block : content) {
                if (block.path("type").asString("").equals("text")) {
                    joined.append(block.path("text").asString(""));
                }
            }
            text = joined.toString();
        }
        if (text.isEmpty()) {
            return null;
        }
        if (Character.isWhitespace(text.charAt(text.length() - 1))) {
            throw ApiException.invalid("messages: final assistant content cannot end with trailing whitespace",
                    "messages");
        }
        return text;
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
        int n = choices(root);
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
        String latestUser = "";
        boolean afterToolResult = false;
        for (int i = 0; i < list.size(); i++) {
            JsonNode message = list.get(i);
            String where = "messages[" + i + "]";
            String role = role(message, where, OPENAI_ROLES);
            JsonNode content = message.get("content");
            List<String> parts = new ArrayList<>(2);
            if (content != null && !content.isNull()) {
                parts.add(openAiContent(content, where + ".content"));
            }
            for (JsonNode call : message.path("tool_calls")) {
                parts.add(call.path("function").path("name").asString("")
                        + call.path("function").path("arguments").asString(""));
            }
            texts.add(String.join("\n", parts));
            if (role.equals("user")) {
                latestUser = parts.isEmpty() ? "" : parts.get(0);
            }
            afterToolResult = role.equals("tool") || role.equals("function");
        }
        List<ChatRequest.Tool> tools = new ArrayList<>();
        List<String> definitions = new ArrayList<>();
        JsonNode toolList = root.get("tools");
        if (toolList != null && toolList.isArray()) {
            for (JsonNode tool : toolList) {
                definitions.add(JSON.writeValueAsString(tool));
                JsonNode function = tool.path("function");
                if (function.path("name").isString()) {
                    tools.add(new ChatRequest.Tool(function.get("name").stringValue(), function.path("parameters")));
                }
            }
        }
        ChatRequest.ToolChoice choice = ChatRequest.ToolChoice.AUTO;
        JsonNode toolChoice = root.get("tool_choice");
        if (toolChoice != null && toolChoice.isString()) {
            choice = switch (toolChoice.stringValue()) {
                case "none" -> new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.NONE, null);
                case "required" -> new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.ANY, null);
                default -> ChatRequest.ToolChoice.AUTO;
            };
        } else if (toolChoice != null && toolChoice.isObject()) {
            choice = new ChatRequest.ToolChoice(ChatRequest.ToolChoice.Mode.TOOL,
                    toolChoice.path("function").path("name").asString(""));
        }
        return new ChatRequest(model, max, stream, includeUsage, texts, list.size(), definitions, tools, choice,
                ChatRequest.Thinking.OFF, stops(root.get("stop")), n, afterToolResult, latestUser, false,
                minTokens(root, max), openAiPrefill(root, list));
    }

    /**
     * vLLM's {@code continue_final_message}: the final message, an assistant's, is the start of the answer (refused, as
     * vLLM refuses it, together with {@code add_generation_prompt}, which is on unless turned off); null when not asked.
     */
    private static String openAiPrefill(JsonNode root, JsonNode messages) {
        if (!root.path("continue_final_message").asBoolean(false)) {
            return null;
        }
        if (root.path("add_generation_prompt").asBoolean(true)) {
            throw ApiException.invalid("Cannot set both `continue_final_message` and `add_generation_prompt` to True.",
                    "continue_final_message");
        }
        JsonNode last = messages.get(messages.size() - 1);
        if (!last.path("role").asString("").equals("assistant")) {
            throw ApiException.invalid("continue_final_message requires the final message to be an assistant's",
                    "continue_final_message");
        }
        JsonNode content = last.get("content");
        String text = content == null || content.isNull() ? "" : openAiContent(content, "messages[-1].content");
        return text.isEmpty() ? null : text;
    }

    /**
     * vLLM's sampling extensions, honoured by both APIs here: {@code ignore_eos: true} generates the whole limit,
     * {@code min_tokens} at least that many (never past the limit).
     */
    private static int minTokens(JsonNode root, int max) {
        if (root.path("ignore_eos").asBoolean(false)) {
            return max;
        }
        JsonNode min = root.get("min_tokens");
        return min == null || min.isNull() ? 0 : Math.min(max, Math.max(0, min.asInt(0)));
    }

    /** OpenAI {@code n}: 1 to 128 choices. */
    private static int choices(JsonNode root) {
        JsonNode n = root.get("n");
        if (n == null || n.isNull()) {
            return 1;
        }
        int value = positiveInt(n, "n");
        if (value > 128) {
            throw ApiException.invalid("n: must be less than or equal to 128", "n");
        }
        return value;
    }

    /** Stop sequences: a string or an array of strings (empty ones ignored). */
    private static List<String> stops(JsonNode stop) {
        List<String> out = new ArrayList<>();
        if (stop == null || stop.isNull()) {
            return out;
        }
        if (stop.isString()) {
            if (!stop.stringValue().isEmpty()) {
                out.add(stop.stringValue());
            }
            return out;
        }
        if (!stop.isArray()) {
            throw ApiException.invalid("stop: must be a string or an array of strings", "stop");
        }
        for (JsonNode item : stop) {
            if (!item.isString()) {
                throw ApiException.invalid("stop: must be a string or an array of strings", "stop");
            }
            if (!item.stringValue().isEmpty()) {
                out.add(item.stringValue());
            }
        }
        return out;
    }

    /** The text blocks of a user message (what a prompt says, without tool results). */
    private static String userText(JsonNode content) {
        if (content.isString()) {
            return content.stringValue();
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode block : content) {
            if (block.path("type").asString("").equals("text")) {
                parts.add(block.path("text").asString(""));
            }
        }
        return String.join("\n", parts);
    }

    private static boolean hasBlock(JsonNode content, String type) {
        if (!content.isArray()) {
            return false;
        }
        for (JsonNode block : content) {
            if (block.path("type").asString("").equals(type)) {
                return true;
            }
        }
        return false;
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
        List<String> text = new ArrayList<>(content.size());
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
                    text.add(value.stringValue());
                }
                case "tool_use", "server_tool_use" -> text.add(block.path("name").asString("")
                        + (block.has("input") ? JSON.writeValueAsString(block.get("input")) : ""));
                case "tool_result" -> {
                    JsonNode inner = block.get("content");
                    if (inner != null && !inner.isNull()) {
                        text.add(anthropicContent(inner, at + ".content"));
                    }
                }
                case "document" -> {
                    JsonNode source = block.path("source");
                    if (source.path("type").asString("").equals("text") && source.path("data").isString()) {
                        text.add(source.get("data").stringValue());
                    }
                }
                default -> {
                    // images, PDFs and thinking blocks carry no prompt text the simulator counts
                }
            }
        }
        return String.join("\n", text);
    }

    /** Text of an OpenAI content: a string or content parts (text parts counted). */
    private static String openAiContent(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        if (!content.isArray()) {
            throw ApiException.invalid(where + ": must be a string or an array of content parts", where);
        }
        List<String> text = new ArrayList<>(content.size());
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String at = where + "[" + i + "]";
            if (part == null || !part.isObject() || !part.path("type").isString()) {
                throw ApiException.invalid(at + ".type: Field required", at + ".type");
            }
            String type = part.get("type").stringValue();
            if ("text".equals(type)) {
                JsonNode value = part.get("text");
                if (value == null || !value.isString()) {
                    throw ApiException.invalid(at + ".text: Field required", at + ".text");
                }
                text.add(value.stringValue());
            } else if ("refusal".equals(type)) {
                text.add(part.path("refusal").asString(""));
            }
        }
        return String.join("\n", text);
    }
}
