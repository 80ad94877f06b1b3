package dev.zerolayer.router.translate;

import static dev.zerolayer.router.translate.TranslationJson.copy;
import static dev.zerolayer.router.translate.TranslationJson.obj;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI Chat Completions request as an Anthropic Messages request with the same meaning: system and developer
 * messages, text, images (data and http URLs), PDFs, tool definitions and choice, tool calls and results, stop
 * sequences, sampling, JSON-schema output and the user. What has no equivalent (several choices, log probabilities,
 * penalties, audio, JSON mode without a schema, reasoning effort, temperatures above 1, unknown fields) throws
 * {@link Untranslatable}; hints that do not change the answer ({@code store}, {@code metadata}, {@code seed},
 * {@code service_tier}, {@code prediction}) are left behind. A request without a token limit gets
 * {@value #DEFAULT_MAX_TOKENS}, which Anthropic requires.
 */
public final class ChatToAnthropic {

    /** The output limit when an OpenAI request sets none (Anthropic requires one). */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private static final Set<String> KNOWN = Set.of("model", "messages", "max_tokens", "max_completion_tokens",
            "temperature", "top_p", "top_k", "stop", "stream", "stream_options", "user", "tools", "tool_choice",
            "parallel_tool_calls", "response_format", "n", "seed", "store", "metadata", "service_tier", "logprobs",
            "top_logprobs", "frequency_penalty", "presence_penalty", "logit_bias", "reasoning_effort", "modalities",
            "prediction", "prompt_cache_key", "safety_identifier");

    private ChatToAnthropic() {
    }

    /** The Messages body (without {@code model}; streaming). */
    public static ObjectNode translate(ObjectNode in) {
        for (String field : in.propertyNames()) {
            if (!KNOWN.contains(field)) {
                throw new Untranslatable(field, "no Anthropic Messages equivalent");
            }
        }
        refuseUnlessDefault(in);
        ObjectNode out = obj();
        JsonNode max = in.path("max_completion_tokens").isIntegralNumber() ? in.get("max_completion_tokens")
                : in.get("max_tokens");
        out.put("max_tokens", max != null && max.isIntegralNumber() ? max.intValue() : DEFAULT_MAX_TOKENS);
        ArrayNode system = EventCodec.mapper().createArrayNode();
        ArrayNode messages = out.putArray("messages");
        JsonNode list = in.get("messages");
        boolean leading = true;
        for (int i = 0; i < list.size(); i++) {
            JsonNode message = list.get(i);
            String where = "messages[" + i + "]";
            String role = message.get("role").stringValue();
            switch (role) {
                case "system", "developer" -> {
                    String text = text(message.get("content"), where + ".content");
                    if (leading) {
                        system.addObject().put("type", "text").put("text", text);
                    } else {
                        messages.addObject().put("role", "system").put("content", text);
                    }
                }
                case "user" -> {
                    leading = false;
                    messages.addObject().put("role", "user").set("content", userContent(message.get("content"),
                            where + ".content"));
                }
                case "assistant" -> {
                    leading = false;
                    messages.addObject().put("role", "assistant").set("content", assistantContent(message, where));
                }
                case "tool" -> {
                    leading = false;
                    ObjectNode result = obj().put("type", "tool_result")
                            .put("tool_use_id", message.path("tool_call_id").asString(""));
                    result.put("content", text(message.get("content"), where + ".content"));
                    toolResults(messages).add(result);
                }
                default -> throw new Untranslatable(where + ".role", "role '" + role
                        + "' has no Anthropic Messages equivalent");
            }
        }
        if (!system.isEmpty()) {
            out.set("system", system.size() == 1 ? system.get(0).get("text") : system);
        }
        temperature(in, out);
        copy(in, "top_p", out, "top_p");
        copy(in, "top_k", out, "top_k");
        JsonNode stop = in.get("stop");
        if (stop != null && stop.isString()) {
            out.putArray("stop_sequences").add(stop.stringValue());
        } else if (stop != null && stop.isArray() && !stop.isEmpty()) {
            out.set("stop_sequences", stop.deepCopy());
        }
        if (in.path("user").isString()) {
            out.putObject("metadata").put("user_id", in.get("user").stringValue());
        }
        responseFormat(in, out);
        tools(in, out);
        out.put("stream", true);
        return out;
    }

    /** Fields without an equivalent are fine at their defaults (many clients send them unset that way). */
    private static void refuseUnlessDefault(ObjectNode in) {
        if (in.path("n").isNumber() && in.get("n").intValue() != 1) {
            throw new Untranslatable("n", "Anthropic Messages answers one choice per request");
        }
        if (in.path("logprobs").asBoolean(false) || in.path("top_logprobs").asInt(0) > 0) {
            throw new Untranslatable(in.path("logprobs").asBoolean(false) ? "logprobs" : "top_logprobs",
                    "Anthropic Messages has no log probabilities");
        }
        for (String penalty : new String[] {"frequency_penalty", "presence_penalty"}) {
            if (in.path(penalty).isNumber() && in.get(penalty).doubleValue() != 0.0) {
                throw new Untranslatable(penalty, "Anthropic Messages has no penalties");
            }
        }
        if (in.path("logit_bias").isObject() && !in.get("logit_bias").isEmpty()) {
            throw new Untranslatable("logit_bias", "Anthropic Messages has no logit bias");
        }
        JsonNode effort = in.get("reasoning_effort");
        if (effort != null && !effort.isNull() && !effort.asString("").equals("none")) {
            throw new Untranslatable("reasoning_effort", "no exact Anthropic Messages equivalent");
        }
        JsonNode modalities = in.get("modalities");
        if (modalities != null && modalities.isArray()) {
            for (JsonNode modality : modalities) {
                if (!modality.asString("").equals("text")) {
                    throw new Untranslatable("modalities", "Anthropic Messages answers in text only");
                }
            }
        }
    }

    private static void temperature(ObjectNode in, ObjectNode out) {
        JsonNode temperature = in.get("temperature");
        if (temperature == null || temperature.isNull()) {
            return;
        }
        if (temperature.isNumber() && temperature.doubleValue() > 1.0) {
            throw new Untranslatable("temperature", "above 1, the most Anthropic Messages accepts");
        }
        out.set("temperature", temperature.deepCopy());
    }

    /** The user message the tool results go in: the last message when it holds only tool results, else a new one. */
    private static ArrayNode toolResults(ArrayNode messages) {
        if (!messages.isEmpty()) {
            JsonNode last = messages.get(messages.size() - 1);
            if (last.path("role").asString("").equals("user") && last.path("content").isArray()
                    && last.path("content").path(0).path("type").asString("").equals("tool_result")) {
                return (ArrayNode) last.get("content");
            }
        }
        ObjectNode message = messages.addObject().put("role", "user");
        return message.putArray("content");
    }

    private static JsonNode userContent(JsonNode content, String where) {
        if (content == null || content.isNull()) {
            return EventCodec.mapper().getNodeFactory().stringNode("");
        }
        if (content.isString()) {
            return content.deepCopy();
        }
        ArrayNode blocks = EventCodec.mapper().createArrayNode();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String at = where + "[" + i + "]";
            String type = part.get("type").stringValue();
            switch (type) {
                case "text" -> blocks.addObject().put("type", "text").put("text", part.get("text").stringValue());
                case "image_url" -> blocks.add(image(part.path("image_url"), at));
                case "file" -> blocks.add(document(part.path("file"), at));
                default -> throw new Untranslatable(at + ".type", "content part '" + type
                        + "' has no Anthropic Messages equivalent");
            }
        }
        return blocks;
    }

    private static ObjectNode image(JsonNode image, String where) {
        String url = image.isString() ? image.stringValue() : image.path("url").asString("");
        ObjectNode block = obj().put("type", "image");
        ObjectNode source = block.putObject("source");
        if (url.startsWith("data:")) {
            int semicolon = url.indexOf(';');
            int comma = url.indexOf(',');
            if (semicolon < 0 || comma < semicolon || !url.substring(semicolon, comma).equals(";base64")) {
                throw new Untranslatable(where + ".image_url.url", "only base64 data URLs have an equivalent");
            }
            source.put("type", "base64").put("media_type", url.substring(5, semicolon))
                    .put("data", url.substring(comma + 1));
        } else if (url.startsWith("http://") || url.startsWith("https://")) {
            source.put("type", "url").put("url", url);
        } else {
            throw new Untranslatable(where + ".image_url.url", "not a data or http(s) URL");
        }
        return block;
    }

    private static ObjectNode document(JsonNode file, String where) {
        String data = file.path("file_data").asString("");
        if (!data.startsWith("data:application/pdf;base64,")) {
            throw new Untranslatable(where + ".file", "only PDFs sent as base64 data have an equivalent");
        }
        ObjectNode block = obj().put("type", "document");
        block.putObject("source").put("type", "base64").put("media_type", "application/pdf")
                .put("data", data.substring(data.indexOf(',') + 1));
        return block;
    }

    private static ArrayNode assistantContent(JsonNode message, String where) {
        ArrayNode blocks = EventCodec.mapper().createArrayNode();
        JsonNode content = message.get("content");
        if (content != null && !content.isNull()) {
            String text = text(content, where + ".content");
            if (!text.isEmpty()) {
                blocks.addObject().put("type", "text").put("text", text);
            }
        }
        JsonNode calls = message.get("tool_calls");
        if (calls != null && calls.isArray()) {
            for (int i = 0; i < calls.size(); i++) {
                JsonNode call = calls.get(i);
                String at = where + ".tool_calls[" + i + "]";
                if (!call.path("type").asString("function").equals("function")) {
                    throw new Untranslatable(at + ".type", "only function calls have an equivalent");
                }
                ObjectNode use = blocks.addObject().put("type", "tool_use").put("id", call.path("id").asString(""))
                        .put("name", call.path("function").path("name").asString(""));
                use.set("input", arguments(call.path("function").path("arguments").asString(""), at));
            }
        }
        if (blocks.isEmpty()) {
            blocks.addObject().put("type", "text").put("text", "");
        }
        return blocks;
    }

    private static JsonNode arguments(String json, String where) {
        if (json.isBlank()) {
            return obj();
        }
        try {
            JsonNode input = EventCodec.mapper().readTree(json);
            if (input != null && input.isObject()) {
                return input;
            }
        } catch (JacksonException e) {
            // falls through
        }
        throw new Untranslatable(where + ".function.arguments", "not a JSON object, which a tool_use input must be");
    }

    /** Text of a string or of text (and refusal) parts. */
    private static String text(JsonNode content, String where) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isString()) {
            return content.stringValue();
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String type = part.path("type").asString("");
            if (type.equals("text")) {
                text.append(part.path("text").asString(""));
            } else if (type.equals("refusal")) {
                text.append(part.path("refusal").asString(""));
            } else {
                throw new Untranslatable(where + "[" + i + "].type", "only text can go there in Anthropic Messages");
            }
        }
        return text.toString();
    }

    private static void responseFormat(ObjectNode in, ObjectNode out) {
        JsonNode format = in.get("response_format");
        if (format == null || format.isNull()) {
            return;
        }
        switch (format.path("type").asString("text")) {
            case "text" -> {
            }
            case "json_schema" -> out.putObject("output_config").putObject("format").put("type", "json_schema")
                    .set("schema", format.path("json_schema").path("schema").deepCopy());
            default -> throw new Untranslatable("response_format.type", "JSON mode without a schema has no exact "
                    + "Anthropic Messages equivalent");
        }
    }

    private static void tools(ObjectNode in, ObjectNode out) {
        JsonNode tools = in.get("tools");
        boolean any = tools != null && tools.isArray() && !tools.isEmpty();
        if (any) {
            ArrayNode list = out.putArray("tools");
            for (int i = 0; i < tools.size(); i++) {
                JsonNode tool = tools.get(i);
                if (!tool.path("type").asString("function").equals("function")) {
                    throw new Untranslatable("tools[" + i + "].type", "only function tools have an equivalent");
                }
                JsonNode function = tool.path("function");
                ObjectNode converted = list.addObject().put("name", function.path("name").asString(""));
                if (function.path("description").isString()) {
                    converted.put("description", function.get("description").stringValue());
                }
                converted.set("input_schema", function.path("parameters").isObject()
                        ? function.get("parameters").deepCopy() : obj().put("type", "object"));
                if (function.path("strict").isBoolean()) {
                    converted.put("strict", function.get("strict").booleanValue());
                }
            }
        }
        JsonNode choice = in.get("tool_choice");
        ObjectNode converted = null;
        if (choice != null && choice.isString()) {
            converted = switch (choice.stringValue()) {
                case "none" -> obj().put("type", "none");
                case "required" -> obj().put("type", "any");
                case "auto" -> obj().put("type", "auto");
                default -> throw new Untranslatable("tool_choice", "unknown tool choice");
            };
        } else if (choice != null && choice.isObject()) {
            if (!choice.path("type").asString("").equals("function")) {
                throw new Untranslatable("tool_choice.type", "only a named function has an equivalent");
            }
            converted = obj().put("type", "tool").put("name", choice.path("function").path("name").asString(""));
        }
        if (in.path("parallel_tool_calls").isBoolean() && !in.get("parallel_tool_calls").booleanValue() && any) {
            if (converted == null) {
                converted = obj().put("type", "auto");
            }
            if (!converted.path("type").asString("").equals("none")) {
                converted.put("disable_parallel_tool_use", true);
            }
        }
        if (converted != null && (any || converted.path("type").asString("").equals("none"))) {
            out.set("tool_choice", converted);
        }
    }
}
