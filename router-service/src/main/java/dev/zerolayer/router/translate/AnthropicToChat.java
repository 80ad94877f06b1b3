package dev.zerolayer.router.translate;

import static dev.zerolayer.router.translate.TranslationJson.copy;
import static dev.zerolayer.router.translate.TranslationJson.obj;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Anthropic Messages request as an OpenAI Chat Completions request with the same meaning: system prompts, text,
 * images, tool definitions and choice, tool calls and results, stop sequences, sampling, structured output and the
 * user id. What has no equivalent (thinking, server tools, documents other than text, effort, context management,
 * unknown fields) throws {@link Untranslatable}; hints that do not change the answer ({@code cache_control},
 * {@code service_tier}) are left behind. Thinking blocks of earlier turns are left behind too: a node of the other
 * API could not verify their signatures and they do not change what the answer means.
 */
public final class AnthropicToChat {

    /** Top-level fields carried, or dropped as hints. Anything else has a meaning this translation cannot keep. */
    private static final Set<String> KNOWN = Set.of("model", "max_tokens", "messages", "system", "stream",
            "temperature", "top_p", "top_k", "stop_sequences", "metadata", "tools", "tool_choice", "thinking",
            "service_tier", "output_config", "output_format");

    private AnthropicToChat() {
    }

    /** The Chat Completions body (without {@code model}; streaming with usage). */
    public static ObjectNode translate(ObjectNode in) {
        for (String field : in.propertyNames()) {
            if (!KNOWN.contains(field)) {
                throw new Untranslatable(field, "no Chat Completions equivalent");
            }
        }
        ObjectNode out = obj();
        ArrayNode messages = out.putArray("messages");
        JsonNode system = in.get("system");
        if (system != null && !system.isNull()) {
            String text = textOnly(system, "system");
            if (!text.isEmpty()) {
                messages.addObject().put("role", "system").put("content", text);
            }
        }
        JsonNode list = in.get("messages");
        for (int i = 0; i < list.size(); i++) {
            message(list.get(i), "messages." + i, messages);
        }
        out.set("max_tokens", in.get("max_tokens"));
        copy(in, "temperature", out, "temperature");
        copy(in, "top_p", out, "top_p");
        copy(in, "top_k", out, "top_k");
        JsonNode stop = in.get("stop_sequences");
        if (stop != null && !stop.isNull() && !stop.isEmpty()) {
            out.set("stop", stop.deepCopy());
        }
        JsonNode user = in.path("metadata").path("user_id");
        if (user.isString()) {
            out.put("user", user.stringValue());
        }
        thinking(in.get("thinking"));
        outputConfig(in, out);
        tools(in, out);
        out.put("stream", true);
        out.putObject("stream_options").put("include_usage", true);
        return out;
    }

    private static void message(JsonNode message, String where, ArrayNode out) {
        for (String field : message.propertyNames()) {
            if (!field.equals("role") && !field.equals("content")) {
                throw new Untranslatable(where + "." + field, "a per-message setting with no Chat Completions "
                        + "equivalent");
            }
        }
        String role = message.get("role").stringValue();
        JsonNode content = message.get("content");
        if (role.equals("system")) {
            out.addObject().put("role", "system").put("content", textOnly(content, where + ".content"));
            return;
        }
        if (content.isString()) {
            out.addObject().put("role", role).put("content", content.stringValue());
            return;
        }
        if (role.equals("assistant")) {
            assistant(content, where + ".content", out);
        } else {
            user(content, where + ".content", out);
        }
    }

    private static void assistant(JsonNode blocks, String where, ArrayNode out) {
        StringBuilder text = new StringBuilder();
        ArrayNode calls = EventCodec.mapper().createArrayNode();
        for (int i = 0; i < blocks.size(); i++) {
            JsonNode block = blocks.get(i);
            String type = block.get("type").stringValue();
            switch (type) {
                case "text" -> text.append(block.get("text").stringValue());
                case "tool_use" -> {
                    ObjectNode call = calls.addObject();
                    call.put("id", block.path("id").asString(""));
                    call.put("type", "function");
                    call.putObject("function").put("name", block.path("name").asString(""))
                            .put("arguments", EventCodec.mapper().writeValueAsString(block.path("input").isObject()
                                    ? block.get("input") : obj()));
                }
                case "thinking", "redacted_thinking" -> {
                    // earlier turns' reasoning: a node of the other API cannot use it (see the class comment)
                }
                default -> throw new Untranslatable(where + "." + i + ".type", "content block '" + type
                        + "' has no Chat Completions equivalent");
            }
        }
        ObjectNode message = out.addObject().put("role", "assistant");
        if (!text.isEmpty() || calls.isEmpty()) {
            message.put("content", text.toString());
        } else {
            message.putNull("content");
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
    }

    /** Tool results become {@code tool} messages, first (they answer the previous turn's calls); the rest one user message. */
    private static void user(JsonNode blocks, String where, ArrayNode out) {
        ArrayNode parts = EventCodec.mapper().createArrayNode();
        for (int i = 0; i < blocks.size(); i++) {
            JsonNode block = blocks.get(i);
            String at = where + "." + i;
            String type = block.get("type").stringValue();
            switch (type) {
                case "text" -> parts.addObject().put("type", "text").put("text", block.get("text").stringValue());
                case "image" -> parts.add(image(block, at));
                case "document" -> {
                    JsonNode source = block.path("source");
                    if (!source.path("type").asString("").equals("text")) {
                        throw new Untranslatable(at + ".source.type", "only text documents have a Chat Completions "
                                + "equivalent");
                    }
                    parts.addObject().put("type", "text").put("text", source.path("data").asString(""));
                }
                case "tool_result" -> {
                    String text = block.has("content") && !block.get("content").isNull()
                            ? textOnly(block.get("content"), at + ".content") : "";
                    if (block.path("is_error").asBoolean(false)) {
                        text = "Error: " + text;
                    }
                    out.addObject().put("role", "tool").put("tool_call_id", block.path("tool_use_id").asString(""))
                            .put("content", text);
                }
                default -> throw new Untranslatable(at + ".type", "content block '" + type
                        + "' has no Chat Completions equivalent");
            }
        }
        if (!parts.isEmpty()) {
            ObjectNode message = out.addObject().put("role", "user");
            if (parts.size() == 1 && parts.get(0).path("type").asString("").equals("text")) {
                message.put("content", parts.get(0).get("text").stringValue());
            } else {
                message.set("content", parts);
            }
        }
    }

    private static ObjectNode image(JsonNode block, String where) {
        JsonNode source = block.path("source");
        String url = switch (source.path("type").asString("")) {
            case "base64" -> "data:" + source.path("media_type").asString("image/png") + ";base64,"
                    + source.path("data").asString("");
            case "url" -> source.path("url").asString("");
            default -> throw new Untranslatable(where + ".source.type", "images by file id have no Chat "
                    + "Completions equivalent");
        };
        ObjectNode part = obj().put("type", "image_url");
        part.putObject("image_url").put("url", url);
        return part;
    }

    /** Text of a string or of text blocks only (anything else there has no plain-text equivalent). */
    static String textOnly(JsonNode content, String where) {
        if (content.isString()) {
            return content.stringValue();
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            if (!block.path("type").asString("").equals("text")) {
                throw new Untranslatable(where + "." + i + ".type", "only text can go there in Chat Completions");
            }
            text.append(text.isEmpty() ? "" : "\n").append(block.path("text").asString(""));
        }
        return text.toString();
    }

    private static void thinking(JsonNode thinking) {
        if (thinking != null && !thinking.isNull() && !thinking.path("type").asString("").equals("disabled")) {
            throw new Untranslatable("thinking", "extended thinking has no Chat Completions equivalent");
        }
    }

    /** Structured output ({@code output_config.format} or the beta {@code output_format}) as a JSON-schema response format. */
    private static void outputConfig(ObjectNode in, ObjectNode out) {
        JsonNode config = in.get("output_config");
        JsonNode format = in.get("output_format");
        if (config != null && !config.isNull()) {
            for (String field : config.propertyNames()) {
                if (!field.equals("format")) {
                    throw new Untranslatable("output_config." + field, "no Chat Completions equivalent");
                }
            }
            format = config.get("format");
        }
        if (format == null || format.isNull()) {
            return;
        }
        if (!format.path("type").asString("").equals("json_schema")) {
            throw new Untranslatable("output_config.format.type", "only json_schema output has an equivalent");
        }
        ObjectNode schema = out.putObject("response_format").put("type", "json_schema").putObject("json_schema");
        schema.put("name", "output");
        schema.set("schema", format.path("schema").deepCopy());
        schema.put("strict", true);
    }

    private static void tools(ObjectNode in, ObjectNode out) {
        JsonNode tools = in.get("tools");
        if (tools != null && !tools.isNull() && !tools.isEmpty()) {
            ArrayNode list = out.putArray("tools");
            for (int i = 0; i < tools.size(); i++) {
                JsonNode tool = tools.get(i);
                String type = tool.path("type").asString("custom");
                if (!type.equals("custom")) {
                    throw new Untranslatable("tools." + i + ".type", "server tool '" + type
                            + "' runs only on Anthropic nodes");
                }
                for (String field : tool.propertyNames()) {
                    if (!Set.of("name", "description", "input_schema", "cache_control", "type", "strict")
                            .contains(field)) {
                        throw new Untranslatable("tools." + i + "." + field, "no Chat Completions equivalent");
                    }
                }
                TranslationJson.functionTool(list, tool, "input_schema");
            }
        }
        JsonNode choice = in.get("tool_choice");
        if (choice == null || choice.isNull()) {
            return;
        }
        switch (choice.path("type").asString("auto")) {
            case "auto" -> out.put("tool_choice", "auto");
            case "any" -> out.put("tool_choice", "required");
            case "none" -> out.put("tool_choice", "none");
            case "tool" -> out.putObject("tool_choice").put("type", "function").putObject("function")
                    .put("name", choice.path("name").asString(""));
            default -> throw new Untranslatable("tool_choice.type", "no Chat Completions equivalent");
        }
        if (choice.path("disable_parallel_tool_use").asBoolean(false) && out.has("tools")) {
            out.put("parallel_tool_calls", false);
        }
    }
}
