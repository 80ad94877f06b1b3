package dev.zerolayer.routing.tokens;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * An OpenAI chat body turned into the chat template's variables as vLLM's chat endpoint prepares them (vLLM
 * 0.10/0.11 {@code chat_utils} and {@code serving_engine._preprocess_chat}, transformers' {@code apply_chat_template}):
 * each message as {@code role}, {@code content} (text parts joined with a newline, or the text parts as a list when the
 * template loops over content; null content is empty), {@code tool_calls} with their arguments parsed from JSON,
 * {@code tool_call_id}, {@code name}, {@code reasoning_content}; the tools as vLLM dumps them; the special tokens; then
 * {@code add_generation_prompt}, {@code documents} and the request's {@code chat_template_kwargs}. What vLLM would
 * render from parts this router cannot see (images, audio, a request's own template) is reported, not guessed.
 */
public final class VllmChatInput {

    /** The text transformers appends to the final message for {@code continue_final_message}. */
    static final String CONTINUE_TAG = "CONTINUE_FINAL_MESSAGE_TAG ";

    private static final Set<String> TEXT_PARTS = Set.of("text", "input_text", "output_text", "refusal", "thinking");
    /** A loop over a message's content, the sign vLLM's detection reads as "this template takes content parts". */
    private static final Pattern CONTENT_LOOP = Pattern.compile(
            "\\{%-?\\s*for\\s+\\w+\\s+in\\s+\\w+\\s*(\\.content\\b|\\[\\s*['\"]content['\"]\\s*])");

    private VllmChatInput() {
    }

    /**
     * The template variables, whether the request continues its final message and adds special tokens, or why the
     * prompt cannot be prepared exactly (then nothing else is set).
     */
    public record Prepared(Map<String, Object> context, boolean continueFinalMessage, boolean addSpecialTokens,
            String problem) {

        static Prepared inexact(String problem) {
            return new Prepared(Map.of(), false, false, problem);
        }
    }

    /** Whether a template takes message content as a list of parts (vLLM's "openai" content format). */
    public static boolean takesContentParts(String templateSource) {
        return CONTENT_LOOP.matcher(templateSource).find();
    }

    /**
     * @param body          an OpenAI chat completions body
     * @param specialTokens the tokenizer's special-token variables
     * @param contentParts  whether the template takes content as parts ({@link #takesContentParts})
     */
    public static Prepared prepare(JsonNode body, Map<String, Object> specialTokens, boolean contentParts) {
        if (body.has("chat_template") && !body.path("chat_template").isNull()) {
            return Prepared.inexact("the request brings its own chat template");
        }
        JsonNode messages = body.path("messages");
        if (!messages.isArray()) {
            return Prepared.inexact("no messages");
        }
        boolean continueFinal = body.path("continue_final_message").asBoolean(false);
        List<Object> prepared = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            boolean last = i == messages.size() - 1;
            Object converted = message(message, contentParts, continueFinal && last);
            if (converted instanceof String problem) {
                return Prepared.inexact(problem);
            }
            prepared.add(converted);
        }
        Map<String, Object> context = new LinkedHashMap<>(specialTokens);
        context.put("messages", prepared);
        context.put("tools", tools(body.path("tools")));
        context.put("documents", plain(body.path("documents")));
        context.put("add_generation_prompt", body.path("add_generation_prompt").asBoolean(true));
        JsonNode kwargs = body.path("chat_template_kwargs");
        if (kwargs.isObject()) {
            for (Map.Entry<String, JsonNode> entry : kwargs.properties()) {
                context.put(entry.getKey(), plain(entry.getValue()));
            }
        }
        return new Prepared(context, continueFinal, body.path("add_special_tokens").asBoolean(false), null);
    }

    /** One message as vLLM hands it to the template, or a problem (a String). */
    private static Object message(JsonNode message, boolean contentParts, boolean tagged) {
        String role = message.path("role").asString("");
        List<String> texts = new ArrayList<>();
        JsonNode content = message.path("content");
        if (content.isString()) {
            texts.add(content.asString());
        } else if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.isString()) {
                    texts.add(part.asString());
                    continue;
                }
                String type = part.path("type").asString("");
                if (!TEXT_PARTS.contains(type)) {
                    return "a '" + type + "' content part: the model's own placeholders are not known here";
                }
                JsonNode text = part.path(type.equals("refusal") ? "refusal" : type.equals("thinking") ? "thinking"
                        : "text");
                if (!text.isNull() && !text.isMissingNode()) {
                    texts.add(text.asString());
                }
            }
        } else if (!content.isNull() && !content.isMissingNode()) {
            return "message content that is neither text nor parts";
        }
        if (tagged) {
            if (texts.isEmpty()) {
                texts.add(CONTINUE_TAG);
            } else {
                texts.set(texts.size() - 1, texts.get(texts.size() - 1) + CONTINUE_TAG);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", role);
        if (contentParts) {
            List<Object> parts = new ArrayList<>(texts.size());
            for (String text : texts) {
                Map<String, Object> part = new LinkedHashMap<>();
                part.put("type", "text");
                part.put("text", text);
                parts.add(part);
            }
            out.put("content", parts);
        } else {
            out.put("content", String.join("\n", texts));
        }
        if (role.equals("assistant") && message.has("tool_calls") && !message.path("tool_calls").isNull()) {
            List<Object> calls = new ArrayList<>();
            for (JsonNode call : message.path("tool_calls")) {
                Object parsed = toolCall(call);
                if (parsed instanceof String problem) {
                    return problem;
                }
                calls.add(parsed);
            }
            out.put("tool_calls", calls);
        } else if (role.equals("tool") && message.has("tool_call_id")) {
            out.put("tool_call_id", plain(message.path("tool_call_id")));
        }
        if (message.path("name").isString()) {
            out.put("name", message.path("name").asString());
        }
        JsonNode reasoning = message.path("reasoning").isString() ? message.path("reasoning")
                : message.path("reasoning_content");
        if (role.equals("assistant") && reasoning.isString() && !reasoning.asString().isEmpty()) {
            out.put("reasoning", reasoning.asString());
            out.put("reasoning_content", reasoning.asString());
        }
        return out;
    }

    /** A tool call with its arguments parsed from their JSON text (empty when there are none). */
    @SuppressWarnings("unchecked")
    private static Object toolCall(JsonNode call) {
        Map<String, Object> out = (Map<String, Object>) plain(call);
        if (out == null) {
            return "a tool call that is not an object";
        }
        if (out.get("function") instanceof Map<?, ?> function) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) function);
            Object arguments = copy.get("arguments");
            if (arguments instanceof String text) {
                if (text.isEmpty()) {
                    copy.put("arguments", new LinkedHashMap<>());
                } else {
                    try {
                        copy.put("arguments", plain(EventCodec.mapper().readTree(text)));
                    } catch (JacksonException e) {
                        return "tool call arguments that are not JSON";
                    }
                }
            } else if (arguments == null) {
                copy.put("arguments", new LinkedHashMap<>());
            }
            out.put("function", copy);
        }
        return out;
    }

    /** The tools as vLLM's model dump writes them: type, then the function's name, description and parameters. */
    private static Object tools(JsonNode tools) {
        if (!tools.isArray()) {
            return null;
        }
        List<Object> out = new ArrayList<>(tools.size());
        for (JsonNode tool : tools) {
            Map<String, Object> dumped = new LinkedHashMap<>();
            dumped.put("type", tool.path("type").asString("function"));
            JsonNode function = tool.path("function");
            Map<String, Object> fn = new LinkedHashMap<>();
            fn.put("name", plain(function.path("name")));
            fn.put("description", plain(function.path("description")));
            fn.put("parameters", plain(function.path("parameters")));
            for (Map.Entry<String, JsonNode> entry : function.properties()) {
                fn.putIfAbsent(entry.getKey(), plain(entry.getValue()));
            }
            dumped.put("function", fn);
            for (Map.Entry<String, JsonNode> entry : tool.properties()) {
                dumped.putIfAbsent(entry.getKey(), plain(entry.getValue()));
            }
            out.add(dumped);
        }
        return out;
    }

    /** A JSON value as plain Java values (maps keep their order; missing and null are null). */
    static Object plain(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (node.isString()) {
            return node.asString();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.asLong() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(item -> list.add(plain(item)));
            return list;
        }
        Map<String, Object> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            map.put(entry.getKey(), plain(entry.getValue()));
        }
        return map;
    }

    /**
     * The rendered prompt cut where the final message's text ends, as transformers cuts it for
     * {@code continue_final_message}: at the tag when the tag and its space survived, else before the tag with
     * trailing whitespace removed; null when the template dropped the tag.
     */
    public static String cutAtContinuationTag(String rendered) {
        String tag = CONTINUE_TAG.strip();
        int at = rendered.lastIndexOf(tag);
        if (at < 0) {
            return null;
        }
        if (rendered.startsWith(CONTINUE_TAG, at)) {
            return rendered.substring(0, at);
        }
        return rendered.substring(0, at).stripTrailing();
    }
}
