package dev.zerolayer.simulator.node;

import java.util.ArrayList;
import java.util.List;

/**
 * The Anthropic Messages API: a {@code message} object, or the SSE sequence {@code message_start}, then per content
 * block (a {@code ping} after the first one starts) {@code content_block_start}, its deltas (thinking, signature, text, or a tool call's partial JSON)
 * and {@code content_block_stop}, then {@code message_delta} and {@code message_stop}; errors as
 * {@code {"type":"error","error":{...}}}; stop reasons {@code end_turn}, {@code max_tokens}, {@code stop_sequence}
 * and {@code tool_use}.
 */
final class AnthropicFormat implements ApiFormat {

    /** Sent after the first block starts, as the API does. */
    private static final String PING = event("ping", "{\"type\": \"ping\"}");

    @Override
    public String path() {
        return "/v1/messages";
    }

    @Override
    public String toolIdPrefix() {
        return "toolu_";
    }

    @Override
    public String message(Completion c) {
        Completion.Choice choice = c.first();
        StringBuilder out = new StringBuilder(256 + choice.outputTokens() * 8);
        out.append("{\"id\":").append(Json.quote(c.id()))
                .append(",\"type\":\"message\",\"role\":\"assistant\",\"content\":[");
        boolean first = true;
        if (choice.signature() != null) {
            out.append("{\"type\":\"thinking\",\"thinking\":");
            Json.quote(out, choice.thinkingShown() ? choice.thinkingText() : "");
            out.append(",\"signature\":").append(Json.quote(choice.signature())).append('}');
            first = false;
        }
        if (choice.toolCall() == null) {
            out.append(first ? "" : ",").append("{\"type\":\"text\",\"text\":");
            Json.quote(out, choice.text());
            out.append('}');
        } else {
            Completion.ToolCall call = choice.toolCall();
            out.append(first ? "" : ",").append("{\"type\":\"tool_use\",\"id\":").append(Json.quote(call.id()))
                    .append(",\"name\":").append(Json.quote(call.name())).append(",\"input\":").append(call.inputJson())
                    .append('}');
        }
        out.append("],\"model\":").append(Json.quote(c.model()))
                .append(",\"stop_reason\":\"").append(stopReason(choice)).append("\",\"stop_sequence\":")
                .append(Json.quote(choice.stopSequence()))
                .append(",\"usage\":{\"input_tokens\":").append(c.inputTokens())
                .append(",\"output_tokens\":").append(c.outputTokens()).append("}}");
        return out.toString();
    }

    @Override
    public List<Frame> frames(Completion c, boolean includeUsage) {
        Completion.Choice choice = c.first();
        List<Frame> frames = new ArrayList<>(choice.outputTokens() + 8);
        frames.add(Frame.other(event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":"
                + Json.quote(c.id()) + ",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":"
                + Json.quote(c.model()) + ",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":"
                + c.inputTokens() + ",\"output_tokens\":1}}}")));
        int index = 0;
        if (choice.signature() != null) {
            frames.add(Frame.other(start(index, "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}")));
            frames.add(Frame.other(PING));
            for (String piece : choice.thinking()) {
                frames.add(Frame.token(choice.thinkingShown() ? delta(index, "thinking_delta", "thinking", piece)
                        : ""));
            }
            frames.add(Frame.other(delta(index, "signature_delta", "signature", choice.signature())));
            frames.add(Frame.other(stop(index)));
            index++;
        }
        boolean pinged = choice.signature() != null;
        if (choice.toolCall() == null) {
            frames.add(Frame.other(start(index, "{\"type\":\"text\",\"text\":\"\"}")));
            if (!pinged) {
                frames.add(Frame.other(PING));
            }
            for (String piece : choice.pieces()) {
                frames.add(Frame.token(delta(index, "text_delta", "text", piece)));
            }
        } else {
            Completion.ToolCall call = choice.toolCall();
            frames.add(Frame.other(start(index, "{\"type\":\"tool_use\",\"id\":" + Json.quote(call.id())
                    + ",\"name\":" + Json.quote(call.name()) + ",\"input\":{}}")));
            if (!pinged) {
                frames.add(Frame.other(PING));
            }
            for (String piece : call.pieces()) {
                frames.add(Frame.token(delta(index, "input_json_delta", "partial_json", piece)));
            }
        }
        frames.add(Frame.other(stop(index)));
        frames.add(Frame.other(event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\""
                + stopReason(choice) + "\",\"stop_sequence\":" + Json.quote(choice.stopSequence())
                + "},\"usage\":{\"output_tokens\":" + c.outputTokens() + "}}")));
        frames.add(Frame.other(event("message_stop", "{\"type\":\"message_stop\"}")));
        return frames;
    }

    private static String start(int index, String block) {
        return event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index
                + ",\"content_block\":" + block + "}");
    }

    private static String delta(int index, String type, String field, String value) {
        return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index + ",\"delta\":"
                + "{\"type\":\"" + type + "\",\"" + field + "\":" + Json.quote(value) + "}}");
    }

    private static String stop(int index) {
        return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    @Override
    public String error(ApiException error) {
        return "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(error.type()) + ",\"message\":"
                + Json.quote(error.getMessage()) + "}}";
    }

    @Override
    public ApiException serverError(boolean overloaded) {
        return overloaded
                ? new ApiException(529, "overloaded_error", "Overloaded", null, null)
                : new ApiException(500, "api_error", "Internal server error", null, null);
    }

    private static String stopReason(Completion.Choice choice) {
        return switch (choice.stop()) {
            case MAX_TOKENS -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case TOOL_USE -> "tool_use";
            case END -> "end_turn";
        };
    }

    private static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
