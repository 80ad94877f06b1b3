package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.answer.Transcript;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a broken stream is asked to go on: the node's body with the text sent as the start of the answer (Anthropic: a
 * trailing assistant message, or the client's own prefill extended; OpenAI protocol: vLLM's
 * {@code continue_final_message} form) and the token limit lowered by the tokens sent; and what in a request rules a
 * continuation out.
 */
final class Continuations {

    private Continuations() {
    }

    /**
     * Why the request cannot be continued, or null: extended thinking (the Messages API takes no prefill with it),
     * several choices, or log probabilities (the rest is re-written from its events, which carry none).
     */
    static String refusal(ClientRequest request) {
        JsonNode body = request.body();
        String thinking = body.path("thinking").path("type").asString("disabled");
        if (request.api() == ClientApi.ANTHROPIC && !thinking.equals("disabled")) {
            return "thinking_requested";
        }
        if (body.path("n").asInt(1) > 1) {
            return "several_choices";
        }
        if (body.path("logprobs").asBoolean(false) || body.path("logprobs").isInt()) {
            return "logprobs_requested";
        }
        return null;
    }

    /** The node's body asking it to go on from {@code go}'s text, {@code go.sentTokens()} fewer tokens to write. */
    static byte[] body(byte[] nodeBody, UpstreamProtocol protocol, Transcript.Go go) {
        ObjectNode body = (ObjectNode) EventCodec.mapper().readTree(nodeBody);
        lower(body, "max_tokens", go.sentTokens());
        lower(body, "max_completion_tokens", go.sentTokens());
        if (!go.prefill().isEmpty()) {
            ArrayNode messages = (ArrayNode) body.get("messages");
            JsonNode last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
            boolean extend = last instanceof ObjectNode message && message.path("role").asString("").equals(
                    "assistant") && (protocol == UpstreamProtocol.ANTHROPIC
                            || body.path("continue_final_message").asBoolean(false));
            if (protocol == UpstreamProtocol.ANTHROPIC) {
                if (extend) {
                    ObjectNode message = (ObjectNode) last;
                    ArrayNode content = blocks(message);
                    content.addObject().put("type", "text").put("text", go.prefill());
                } else {
                    messages.addObject().put("role", "assistant").putArray("content").addObject()
                            .put("type", "text").put("text", go.prefill());
                }
            } else {
                if (extend) {
                    ObjectNode message = (ObjectNode) last;
                    JsonNode content = message.get("content");
                    if (content instanceof ArrayNode parts) {
                        parts.addObject().put("type", "text").put("text", go.prefill());
                    } else {
                        message.put("content", (content == null || content.isNull() ? "" : content.asString(""))
                                + go.prefill());
                    }
                } else {
                    messages.addObject().put("role", "assistant").put("content", go.prefill());
                }
                body.put("continue_final_message", true).put("add_generation_prompt", false);
            }
        }
        return EventCodec.bytes(body);
    }

    private static ArrayNode blocks(ObjectNode message) {
        JsonNode content = message.get("content");
        if (content instanceof ArrayNode array) {
            return array;
        }
        ArrayNode array = message.putArray("content");
        if (content != null && content.isString() && !content.stringValue().isEmpty()) {
            array.addObject().put("type", "text").put("text", content.stringValue());
        }
        return array;
    }

    private static void lower(ObjectNode body, String field, int sent) {
        JsonNode limit = body.get(field);
        if (limit != null && limit.canConvertToInt()) {
            body.put(field, Math.max(1, limit.intValue() - sent));
        }
    }
}
