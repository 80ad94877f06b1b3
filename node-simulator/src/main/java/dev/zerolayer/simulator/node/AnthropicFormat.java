package dev.zerolayer.simulator.node;

import java.util.ArrayList;
import java.util.List;

/**
 * The Anthropic Messages API: a {@code message} object, or the SSE sequence {@code message_start},
 * {@code content_block_start}, {@code ping}, {@code content_block_delta}..., {@code content_block_stop},
 * {@code message_delta}, {@code message_stop}; errors as {@code {"type":"error","error":{...}}}; stop reasons
 * {@code end_turn} and {@code max_tokens}.
 */
final class AnthropicFormat implements ApiFormat {

    @Override
    public String path() {
        return "/v1/messages";
    }

    @Override
    public String message(Completion c) {
        StringBuilder out = new StringBuilder(256 + c.outputTokens() * 8);
        out.append("{\"id\":").append(Json.quote(c.id()))
                .append(",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":");
        Json.quote(out, c.text());
        out.append("}],\"model\":").append(Json.quote(c.model()))
                .append(",\"stop_reason\":\"").append(stopReason(c)).append("\",\"stop_sequence\":null")
                .append(",\"usage\":{\"input_tokens\":").append(c.inputTokens())
                .append(",\"output_tokens\":").append(c.outputTokens()).append("}}");
        return out.toString();
    }

    @Override
    public List<String> head(Completion c) {
        List<String> frames = new ArrayList<>(4);
        frames.add(event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":" + Json.quote(c.id())
                + ",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":" + Json.quote(c.model())
                + ",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + c.inputTokens()
                + ",\"output_tokens\":1}}}"));
        frames.add(event("content_block_start",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
        frames.add(event("ping", "{\"type\": \"ping\"}"));
        if (c.outputTokens() > 0) {
            frames.add(delta(c, 0));
        }
        return frames;
    }

    @Override
    public String delta(Completion c, int index) {
        return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":" + Json.quote(c.pieces()[index]) + "}}");
    }

    @Override
    public List<String> tail(Completion c, boolean includeUsage) {
        return List.of(
                event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
                event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason(c)
                        + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + c.outputTokens() + "}}"),
                event("message_stop", "{\"type\":\"message_stop\"}"));
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

    private static String stopReason(Completion c) {
        return c.capped() ? "max_tokens" : "end_turn";
    }

    private static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
