package dev.zerolayer.router.translate;

import static dev.zerolayer.router.translate.TranslationJson.copy;
import static dev.zerolayer.router.translate.TranslationJson.obj;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI Responses request (the stateless subset) as a Chat Completions request with the same meaning:
 * instructions, input messages and their text, image and file parts, function tools and choice, function calls and
 * their outputs, the text format, sampling, the output limit, the reasoning effort and the user; from there
 * {@link ChatToAnthropic} takes it to Anthropic nodes. Hosted tools, hosted tool items and unknown fields throw
 * {@link Untranslatable}; reasoning items of earlier turns are left behind, as are hints ({@code store},
 * {@code previous_response_id}, whose conversation the gateway has already put in the input,
 * {@code include}, {@code metadata}, {@code truncation}, {@code service_tier}, reasoning summaries, cache keys).
 */
public final class ResponsesToChat {

    private static final Set<String> KNOWN = Set.of("model", "input", "instructions", "tools", "tool_choice", "text",
            "max_output_tokens", "temperature", "top_p", "parallel_tool_calls", "store", "metadata", "user",
            "safety_identifier", "prompt_cache_key", "prompt_cache_retention", "stream", "stream_options", "include",
            "truncation", "service_tier", "reasoning", "top_logprobs", "background", "max_tool_calls",
            "previous_response_id");

    /** The Chat Completions fields {@link ChatToAnthropic} can refuse, by the Responses field they came from. */
    private static final Map<String, String> RESPONSES_NAMES = Map.of("reasoning_effort", "reasoning.effort",
            "response_format.type", "text.format.type");

    private ResponsesToChat() {
    }

    /** The Chat Completions body (without {@code model}; streaming with usage). */
    public static ObjectNode translate(ObjectNode in) {
        for (String field : in.propertyNames()) {
            if (!KNOWN.contains(field)) {
                throw new Untranslatable(field, "no equivalent on the nodes' APIs");
            }
        }
        if (in.path("top_logprobs").asInt(0) > 0) {
            throw new Untranslatable("top_logprobs", "not carried by this gateway");
        }
        if (in.path("background").asBoolean(false)) {
            throw new Untranslatable("background", "background responses need storage this gateway does not keep");
        }
        ObjectNode out = obj();
        ArrayNode messages = out.putArray("messages");
        if (in.path("instructions").isString() && !in.get("instructions").stringValue().isEmpty()) {
            messages.addObject().put("role", "system").put("content", in.get("instructions").stringValue());
        }
        JsonNode input = in.get("input");
        if (input.isString()) {
            messages.addObject().put("role", "user").put("content", input.stringValue());
        } else {
            for (int i = 0; i < input.size(); i++) {
                item(input.get(i), "input[" + i + "]", messages);
            }
        }
        copy(in, "max_output_tokens", out, "max_tokens");
        copy(in, "temperature", out, "temperature");
        copy(in, "top_p", out, "top_p");
        copy(in, "parallel_tool_calls", out, "parallel_tool_calls");
        copy(in.path("reasoning"), "effort", out, "reasoning_effort"); // the same levels in both OpenAI APIs
        String user = in.path("user").isString() ? in.get("user").stringValue()
                : in.path("safety_identifier").isString() ? in.get("safety_identifier").stringValue() : null;
        if (user != null) {
            out.put("user", user);
        }
        format(in.path("text"), out);
        tools(in, out);
        out.put("stream", true);
        out.putObject("stream_options").put("include_usage", true);
        return out;
    }

    /**
     * The Anthropic Messages body, by way of the Chat Completions one; a refused field that this translation put
     * under a Chat Completions name is named as the Responses API names it.
     */
    public static ObjectNode toAnthropic(ObjectNode in) {
        ObjectNode chat = translate(in);
        try {
            return ChatToAnthropic.translate(chat);
        } catch (Untranslatable problem) {
            String responsesName = RESPONSES_NAMES.get(problem.field());
            throw responsesName == null ? problem : new Untranslatable(responsesName, problem.getMessage());
        }
    }

    private static void item(JsonNode item, String where, ArrayNode messages) {
        String type = item.path("type").asString(item.has("role") ? "message" : "");
        switch (type) {
            case "message" -> {
                String role = item.get("role").stringValue();
                ObjectNode message = messages.addObject().put("role", role);
                JsonNode content = item.get("content");
                if (content.isString()) {
                    message.put("content", content.stringValue());
                } else if (role.equals("assistant") || role.equals("system") || role.equals("developer")) {
                    message.put("content", text(content, where + ".content"));
                } else {
                    message.set("content", parts(content, where + ".content"));
                }
            }
            case "function_call" -> {
                ObjectNode call = obj().put("id", item.path("call_id").asString("")).put("type", "function");
                call.putObject("function").put("name", item.path("name").asString(""))
                        .put("arguments", item.path("arguments").asString(""));
                ObjectNode last = messages.isEmpty() ? null : (ObjectNode) messages.get(messages.size() - 1);
                if (last != null && last.path("role").asString("").equals("assistant")) {
                    (last.has("tool_calls") ? (ArrayNode) last.get("tool_calls") : last.putArray("tool_calls"))
                            .add(call);
                } else {
                    ObjectNode message = messages.addObject().put("role", "assistant");
                    message.putNull("content");
                    message.putArray("tool_calls").add(call);
                }
            }
            case "function_call_output" -> {
                JsonNode output = item.get("output");
                messages.addObject().put("role", "tool").put("tool_call_id", item.path("call_id").asString(""))
                        .put("content", output.isString() ? output.stringValue() : text(output, where + ".output"));
            }
            case "reasoning" -> {
                // an earlier turn's reasoning: the nodes' APIs take none back
            }
            default -> throw new Untranslatable(where + ".type", "item '" + type
                    + "' belongs to a hosted tool this gateway does not run");
        }
    }

    /** User content parts as Chat Completions parts (text, image URL, file). */
    private static ArrayNode parts(JsonNode content, String where) {
        ArrayNode parts = EventCodec.mapper().createArrayNode();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String type = part.path("type").asString("");
            switch (type) {
                case "input_text", "text", "output_text" -> parts.addObject().put("type", "text")
                        .put("text", part.path("text").asString(""));
                case "input_image" -> {
                    if (!part.path("image_url").isString()) {
                        throw new Untranslatable(where + "[" + i + "].file_id", "images by file id need the "
                                + "provider's file storage");
                    }
                    ObjectNode image = parts.addObject().put("type", "image_url").putObject("image_url");
                    image.put("url", part.get("image_url").stringValue());
                    if (part.path("detail").isString()) {
                        image.put("detail", part.get("detail").stringValue());
                    }
                }
                case "image_url" -> parts.add(part.deepCopy());
                case "input_file" -> {
                    if (!part.path("file_data").isString()) {
                        throw new Untranslatable(where + "[" + i + "]", "files by id or URL need the provider's "
                                + "file storage");
                    }
                    ObjectNode file = parts.addObject().put("type", "file").putObject("file");
                    file.put("file_data", part.get("file_data").stringValue());
                    if (part.path("filename").isString()) {
                        file.put("filename", part.get("filename").stringValue());
                    }
                }
                default -> throw new Untranslatable(where + "[" + i + "].type", "content part '" + type
                        + "' has no equivalent on the nodes' APIs");
            }
        }
        return parts;
    }

    private static String text(JsonNode content, String where) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = content.get(i);
            String type = part.path("type").asString("");
            switch (type) {
                case "input_text", "output_text", "text" -> text.append(part.path("text").asString(""));
                case "refusal" -> text.append(part.path("refusal").asString(""));
                default -> throw new Untranslatable(where + "[" + i + "].type", "only text can go there");
            }
        }
        return text.toString();
    }

    private static void format(JsonNode text, ObjectNode out) {
        for (String field : text.propertyNames()) {
            if (!field.equals("format") && !field.equals("verbosity")) {
                throw new Untranslatable("text." + field, "no equivalent on the nodes' APIs");
            }
        }
        JsonNode format = text.get("format");
        if (format == null || format.isNull()) {
            return;
        }
        switch (format.path("type").asString("text")) {
            case "text" -> {
            }
            case "json_object" -> out.putObject("response_format").put("type", "json_object");
            case "json_schema" -> {
                ObjectNode schema = out.putObject("response_format").put("type", "json_schema")
                        .putObject("json_schema");
                schema.put("name", format.path("name").asString("response"));
                schema.set("schema", format.path("schema").deepCopy());
                if (format.path("strict").isBoolean()) {
                    schema.put("strict", format.get("strict").booleanValue());
                }
            }
            default -> throw new Untranslatable("text.format.type", "unknown text format");
        }
    }

    private static void tools(ObjectNode in, ObjectNode out) {
        JsonNode tools = in.get("tools");
        if (tools != null && tools.isArray() && !tools.isEmpty()) {
            ArrayNode list = out.putArray("tools");
            for (int i = 0; i < tools.size(); i++) {
                JsonNode tool = tools.get(i);
                String type = tool.path("type").asString("");
                if (!type.equals("function")) {
                    throw new Untranslatable("tools[" + i + "].type", "hosted tool '" + type
                            + "' is not run by this gateway");
                }
                TranslationJson.functionTool(list, tool, "parameters");
            }
        }
        JsonNode choice = in.get("tool_choice");
        if (choice == null || choice.isNull()) {
            return;
        }
        if (choice.isString()) {
            out.put("tool_choice", choice.stringValue());
        } else if (choice.path("type").asString("").equals("function")) {
            String name = choice.has("function") ? choice.path("function").path("name").asString("")
                    : choice.path("name").asString("");
            out.putObject("tool_choice").put("type", "function").putObject("function").put("name", name);
        } else {
            throw new Untranslatable("tool_choice.type", "only none, auto, required or a named function have an "
                    + "equivalent");
        }
    }
}
