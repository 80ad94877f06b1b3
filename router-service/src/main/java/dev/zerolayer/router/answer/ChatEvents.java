package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an OpenAI Chat Completions stream (choice 0) as {@link AnswerEvent}s: the first chunk starts the message (with
 * the gateway's own input-token count until the node's usage arrives), reasoning text ({@code reasoning} or
 * {@code reasoning_content}) a thinking block, content and refusals a text block, each tool call a tool_use block whose
 * arguments grow as partial JSON; the finish reason and the usage chunk end it, with the node's real input tokens.
 */
public final class ChatEvents {

    private enum Open { NONE, THINKING, TEXT, TOOL }

    private final int estimatedInputTokens;
    private final Map<Integer, Integer> toolBlocks = new HashMap<>();
    private boolean started;
    private boolean ended;
    private Open open = Open.NONE;
    private int openIndex = -1;
    private int nextIndex;
    private String finishReason;
    private boolean refused;
    private JsonNode usage;

    /** @param estimatedInputTokens input tokens the message starts with (the node's count comes at the end) */
    public ChatEvents(int estimatedInputTokens) {
        this.estimatedInputTokens = estimatedInputTokens;
    }

    /** The events of one raw SSE event of the stream. */
    public List<AnswerEvent> read(byte[] raw) {
        SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
        if (event.data() == null || ended) {
            return List.of();
        }
        if (event.data().trim().equals("[DONE]")) {
            return end();
        }
        ObjectNode chunk = event.json();
        if (chunk == null) {
            return List.of();
        }
        return chunk(chunk);
    }

    /** The events of one parsed chunk. */
    public List<AnswerEvent> chunk(ObjectNode chunk) {
        List<AnswerEvent> out = new ArrayList<>(3);
        if (chunk.has("error")) {
            ended = true;
            out.add(new AnswerEvent.Failure(error(chunk.get("error"))));
            return out;
        }
        if (!started) {
            started = true;
            ObjectNode message = obj().put("id", "msg_" + chunk.path("id").asString("zl")).put("type", "message")
                    .put("role", "assistant");
            message.putArray("content");
            message.put("model", chunk.path("model").asString("")).putNull("stop_reason").putNull("stop_sequence");
            message.putObject("usage").put("input_tokens", estimatedInputTokens).put("output_tokens", 0);
            out.add(new AnswerEvent.Start(message));
        }
        if (chunk.get("usage") instanceof ObjectNode given) {
            usage = given;
        }
        JsonNode choice = null;
        for (JsonNode candidate : chunk.path("choices")) {
            if (candidate.path("index").asInt(0) == 0) {
                choice = candidate;
            }
        }
        if (choice == null) {
            return out;
        }
        JsonNode delta = choice.path("delta");
        String reasoning = delta.path("reasoning").isString() ? delta.get("reasoning").stringValue()
                : delta.path("reasoning_content").asString("");
        if (!reasoning.isEmpty()) {
            openBlock(Open.THINKING, out, obj().put("type", "thinking").put("thinking", "").put("signature", ""));
            out.add(new AnswerEvent.BlockDelta(openIndex, AnswerEvent.Kind.THINKING, reasoning));
        }
        String text = delta.path("content").asString("");
        String refusal = delta.path("refusal").asString("");
        if (!refusal.isEmpty()) {
            refused = true;
        }
        if (!text.isEmpty() || !refusal.isEmpty()) {
            openBlock(Open.TEXT, out, obj().put("type", "text").put("text", ""));
            out.add(new AnswerEvent.BlockDelta(openIndex, AnswerEvent.Kind.TEXT, text + refusal));
        }
        for (JsonNode call : delta.path("tool_calls")) {
            int tool = call.path("index").asInt(0);
            Integer block = toolBlocks.get(tool);
            if (block == null) {
                ObjectNode start = obj().put("type", "tool_use").put("id", call.path("id").asString("call_" + tool))
                        .put("name", call.path("function").path("name").asString(""));
                start.putObject("input");
                openBlock(Open.TOOL, out, start);
                block = openIndex;
                toolBlocks.put(tool, block);
            }
            String arguments = call.path("function").path("arguments").asString("");
            if (!arguments.isEmpty()) {
                // a fragment of an earlier call (some servers interleave calls) still goes to that call's block
                out.add(new AnswerEvent.BlockDelta(block, AnswerEvent.Kind.INPUT_JSON, arguments));
            }
        }
        if (choice.path("finish_reason").isString()) {
            finishReason = choice.get("finish_reason").stringValue();
        }
        return out;
    }

    /** The stream ended (its {@code [DONE]}, or the connection closed after a finish reason): the message's end. */
    public List<AnswerEvent> end() {
        if (ended || !started || finishReason == null) {
            return List.of();
        }
        ended = true;
        List<AnswerEvent> out = new ArrayList<>(3);
        closeBlock(out);
        ObjectNode delta = obj().put("stop_reason", refused ? "refusal" : stopReason(finishReason));
        delta.putNull("stop_sequence");
        ObjectNode anthropicUsage = obj();
        if (usage != null) {
            int prompt = usage.path("prompt_tokens").asInt(0);
            int cached = usage.path("prompt_tokens_details").path("cached_tokens").asInt(0);
            anthropicUsage.put("input_tokens", Math.max(0, prompt - cached));
            anthropicUsage.put("cache_read_input_tokens", cached);
            anthropicUsage.put("output_tokens", usage.path("completion_tokens").asInt(0));
        } else {
            anthropicUsage.put("output_tokens", 0);
        }
        out.add(new AnswerEvent.MessageDelta(delta, anthropicUsage));
        out.add(new AnswerEvent.Stop());
        return out;
    }

    /** Whether the stream reached its end. */
    public boolean ended() {
        return ended;
    }

    private void openBlock(Open kind, List<AnswerEvent> out, ObjectNode block) {
        if (open == kind && kind != Open.TOOL) {
            return;
        }
        closeBlock(out);
        open = kind;
        openIndex = nextIndex++;
        out.add(new AnswerEvent.BlockStart(openIndex, block));
    }

    private void closeBlock(List<AnswerEvent> out) {
        if (open != Open.NONE) {
            out.add(new AnswerEvent.BlockStop(openIndex));
            open = Open.NONE;
        }
    }

    /** An Anthropic stop reason for an OpenAI finish reason. */
    public static String stopReason(String finishReason) {
        return switch (finishReason == null ? "" : finishReason) {
            case "length" -> "max_tokens";
            case "tool_calls", "function_call" -> "tool_use";
            case "content_filter" -> "refusal";
            default -> "end_turn";
        };
    }

    private static ObjectNode error(JsonNode error) {
        String message = error.isObject() ? error.path("message").asString("the node failed mid-answer")
                : "the node failed mid-answer";
        return obj().put("type", "api_error").put("message", message);
    }

    private static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }
}
