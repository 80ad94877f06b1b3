package dev.zerolayer.router.wire;

import static dev.zerolayer.router.wire.RequestParser.definitions;
import static dev.zerolayer.router.wire.RequestParser.object;
import static dev.zerolayer.router.wire.RequestParser.optionalBoolean;
import static dev.zerolayer.router.wire.RequestParser.optionalPositiveInt;
import static dev.zerolayer.router.wire.RequestParser.requiredString;
import static dev.zerolayer.router.wire.RequestParser.requiredText;
import static dev.zerolayer.router.wire.RequestParser.messages;

import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.tokens.ImageSize;
import dev.zerolayer.routing.tokens.MediaTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAI APIs' bodies (Chat Completions, Responses, legacy Completions) as {@link ClientRequest}s, with
 * {@link RequestParser}'s rules: only what routing needs and what the API rejects is checked, every part that costs
 * input tokens is read.
 */
final class OpenAiRequests {

    private static final Set<String> OPENAI_ROLES = Set.of("system", "developer", "user", "assistant", "tool",
            "function");
    private static final Set<String> RESPONSES_ROLES = Set.of("system", "developer", "user", "assistant");

    private OpenAiRequests() {
    }

    /** A {@code /v1/chat/completions} body. */
    static ClientRequest chat(ObjectNode body) {
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

    /**
     * A {@code /v1/responses} body (no conversations; a {@code previous_response_id}'s conversation is already in its
     * input, put there by {@code ResponseItems}).
     */
    static ClientRequest responses(ObjectNode body) {
        String model = requiredString(body, "model");
        boolean stream = optionalBoolean(body, "stream");
        int maxTokens = optionalPositiveInt(body, "max_output_tokens");
        JsonNode conversation = body.get("conversation");
        if (conversation != null && !conversation.isNull()) {
            throw ApiException.invalid("conversation: not supported; this gateway keeps no conversations, so send "
                    + "the conversation in 'input' or go on from a response with 'previous_response_id'");
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

    /** A {@code /v1/completions} body: a prompt as a string, strings, or token ids. */
    static ClientRequest completions(ObjectNode body) {
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
}
