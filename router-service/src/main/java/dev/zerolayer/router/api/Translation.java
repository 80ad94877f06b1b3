package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic Messages <-> OpenAI Chat Completions for plain text conversations, used only when no node speaking the
 * client's API can serve: requests, whole responses and stop reasons (tools, images and other blocks are dropped).
 */
public final class Translation {

    private Translation() {
    }

    /** The upstream body for a node: the client's body with {@code model} replaced, translated when the APIs differ. */
    public static byte[] upstreamBody(ClientRequest request, ClientApi nodeApi, String nodeModel) {
        ObjectNode body;
        if (nodeApi == request.api()) {
            body = request.body().deepCopy();
            body.put("model", nodeModel);
        } else if (nodeApi == ClientApi.OPENAI) {
            body = anthropicToOpenAiRequest(request, nodeModel);
        } else {
            body = openAiToAnthropicRequest(request, nodeModel);
        }
        return EventCodec.mapper().writeValueAsBytes(body);
    }

    static ObjectNode anthropicToOpenAiRequest(ClientRequest request, String model) {
        ObjectNode in = request.body();
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("model", model);
        ArrayNode messages = out.putArray("messages");
        if (!request.conversation().system().isEmpty()) {
            messages.addObject().put("role", "system").put("content", request.conversation().system());
        }
        for (JsonNode message : in.get("messages")) {
            messages.addObject().put("role", message.get("role").stringValue())
                    .put("content", text(message.get("content")));
        }
        copy(in, "max_tokens", out, "max_tokens");
        copy(in, "temperature", out, "temperature");
        copy(in, "top_p", out, "top_p");
        copy(in, "stop_sequences", out, "stop");
        if (request.stream()) {
            out.put("stream", true);
            out.putObject("stream_options").put("include_usage", true);
        }
        return out;
    }

    static ObjectNode openAiToAnthropicRequest(ClientRequest request, String model) {
        ObjectNode in = request.body();
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("model", model);
        JsonNode maxTokens = in.get("max_completion_tokens") != null && !in.get("max_completion_tokens").isNull()
                ? in.get("max_completion_tokens") : in.get("max_tokens");
        out.put("max_tokens", maxTokens != null && maxTokens.isIntegralNumber() ? maxTokens.intValue() : 4096);
        if (!request.conversation().system().isEmpty()) {
            out.put("system", request.conversation().system());
        }
        ArrayNode messages = out.putArray("messages");
        for (JsonNode message : in.get("messages")) {
            String role = message.get("role").stringValue();
            if (role.equals("system") || role.equals("developer")) {
                continue;
            }
            messages.addObject().put("role", role.equals("assistant") ? "assistant" : "user")
                    .put("content", text(message.get("content")));
        }
        copy(in, "temperature", out, "temperature");
        copy(in, "top_p", out, "top_p");
        JsonNode stop = in.get("stop");
        if (stop != null && stop.isString()) {
            out.putArray("stop_sequences").add(stop.stringValue());
        } else if (stop != null && stop.isArray()) {
            out.set("stop_sequences", stop.deepCopy());
        }
        if (request.stream()) {
            out.put("stream", true);
        }
        return out;
    }

    /** An OpenAI chat completion as an Anthropic message. */
    public static ObjectNode openAiToAnthropicResponse(JsonNode in, String model) {
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("id", "msg_" + in.path("id").asString("zl"));
        out.put("type", "message");
        out.put("role", "assistant");
        out.put("model", model);
        JsonNode choice = in.path("choices").path(0);
        out.putArray("content").addObject().put("type", "text").put("text", choice.path("message").path("content")
                .asString(""));
        out.put("stop_reason", anthropicStop(choice.path("finish_reason").asString(null)));
        out.putNull("stop_sequence");
        ObjectNode usage = out.putObject("usage");
        usage.put("input_tokens", in.path("usage").path("prompt_tokens").asInt(0));
        usage.put("output_tokens", in.path("usage").path("completion_tokens").asInt(0));
        return out;
    }

    /** An Anthropic message as an OpenAI chat completion. */
    public static ObjectNode anthropicToOpenAiResponse(JsonNode in, String model) {
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("id", "chatcmpl-" + in.path("id").asString("zl"));
        out.put("object", "chat.completion");
        out.put("created", System.currentTimeMillis() / 1000);
        out.put("model", model);
        ObjectNode choice = out.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", text(in.path("content")));
        choice.putNull("logprobs");
        choice.put("finish_reason", openAiFinish(in.path("stop_reason").asString(null)));
        int input = in.path("usage").path("input_tokens").asInt(0);
        int output = in.path("usage").path("output_tokens").asInt(0);
        out.putObject("usage").put("prompt_tokens", input).put("completion_tokens", output)
                .put("total_tokens", input + output);
        return out;
    }

    public static String anthropicStop(String finishReason) {
        if (finishReason == null) {
            return "end_turn";
        }
        return switch (finishReason) {
            case "length" -> "max_tokens";
            case "tool_calls", "function_call" -> "tool_use";
            default -> "end_turn";
        };
    }

    public static String openAiFinish(String stopReason) {
        if (stopReason == null) {
            return "stop";
        }
        return switch (stopReason) {
            case "max_tokens" -> "length";
            case "tool_use" -> "tool_calls";
            default -> "stop";
        };
    }

    /** The text of a string or of the text blocks / parts of an array. */
    static String text(JsonNode content) {
        if (content == null || content.isNull() || content.isMissingNode()) {
            return "";
        }
        if (content.isString()) {
            return content.stringValue();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode block : content) {
            if (block.path("type").asString("").equals("text") && block.path("text").isString()) {
                text.append(block.path("text").stringValue());
            }
        }
        return text.toString();
    }

    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null && !value.isNull()) {
            to.set(as, value.deepCopy());
        }
    }
}
