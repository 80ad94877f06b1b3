package dev.zerolayer.simulator.node;

import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI Chat Completions API: a {@code chat.completion} object with one choice per {@code n}, or
 * {@code chat.completion.chunk} SSE frames per choice (role chunk, one chunk per token of content or of a tool call's
 * arguments, a finish chunk), with {@code stream_options.include_usage} a usage chunk with empty choices, closed by
 * {@code data: [DONE]}; errors as {@code {"error":{"message","type","param","code"}}}; finish reasons {@code stop},
 * {@code length} and {@code tool_calls}. Usage reports cached prompt tokens in {@code prompt_tokens_details}.
 */
final class OpenAiFormat implements ApiFormat {

    static final String FINGERPRINT = "fp_zerolayer_sim";

    @Override
    public String path() {
        return "/v1/chat/completions";
    }

    @Override
    public String toolIdPrefix() {
        return "call_";
    }

    @Override
    public String message(Completion c) {
        StringBuilder out = new StringBuilder(320 + c.outputTokens() * 8);
        out.append("{\"id\":").append(Json.quote(c.id())).append(",\"object\":\"chat.completion\",\"created\":")
                .append(c.created()).append(",\"model\":").append(Json.quote(c.model()))
                .append(",\"system_fingerprint\":\"").append(FINGERPRINT).append('"')
                .append(",\"choices\":[");
        for (int i = 0; i < c.choices().size(); i++) {
            Completion.Choice choice = c.choices().get(i);
            out.append(i == 0 ? "" : ",").append("{\"index\":").append(i)
                    .append(",\"message\":{\"role\":\"assistant\",\"content\":");
            if (choice.toolCall() == null) {
                Json.quote(out, choice.text());
            } else {
                out.append("null");
            }
            out.append(",\"refusal\":null");
            if (choice.toolCall() != null) {
                Completion.ToolCall call = choice.toolCall();
                out.append(",\"tool_calls\":[{\"id\":").append(Json.quote(call.id()))
                        .append(",\"type\":\"function\",\"function\":{\"name\":").append(Json.quote(call.name()))
                        .append(",\"arguments\":").append(Json.quote(call.inputJson())).append("}}]");
            }
            out.append("},\"logprobs\":null,\"finish_reason\":\"").append(finishReason(choice)).append("\"}");
        }
        out.append("],\"usage\":");
        usage(out, c);
        return out.append('}').toString();
    }

    @Override
    public List<Frame> frames(Completion c, boolean includeUsage) {
        List<Frame> frames = new ArrayList<>(c.outputTokens() + 4 * c.choices().size() + 2);
        for (int i = 0; i < c.choices().size(); i++) {
            Completion.Choice choice = c.choices().get(i);
            Completion.ToolCall call = choice.toolCall();
            frames.add(Frame.other(chunk(c, i, call == null ? "{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}"
                    : "{\"role\":\"assistant\",\"content\":null,\"refusal\":null}", "null")));
            if (call == null) {
                for (String piece : choice.pieces()) {
                    frames.add(Frame.token(chunk(c, i, "{\"content\":" + Json.quote(piece) + "}", "null")));
                }
            } else {
                String[] pieces = call.pieces();
                for (int p = 0; p < pieces.length; p++) {
                    String delta = p == 0
                            ? "{\"tool_calls\":[{\"index\":0,\"id\":" + Json.quote(call.id())
                                    + ",\"type\":\"function\",\"function\":{\"name\":" + Json.quote(call.name())
                                    + ",\"arguments\":" + Json.quote(pieces[p]) + "}}]}"
                            : "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":" + Json.quote(pieces[p])
                                    + "}}]}";
                    frames.add(Frame.token(chunk(c, i, delta, "null")));
                }
            }
            frames.add(Frame.other(chunk(c, i, "{}", "\"" + finishReason(choice) + "\"")));
        }
        if (includeUsage) {
            StringBuilder out = new StringBuilder(256);
            prefix(out, c).append(",\"choices\":[],\"usage\":");
            usage(out, c);
            frames.add(Frame.other(out.append("}\n\n").toString()));
        }
        frames.add(Frame.other("data: [DONE]\n\n"));
        return frames;
    }

    @Override
    public String error(ApiException error) {
        return "{\"error\":{\"message\":" + Json.quote(error.getMessage()) + ",\"type\":" + Json.quote(error.type())
                + ",\"param\":" + Json.quote(error.param()) + ",\"code\":" + Json.quote(error.code()) + "}}";
    }

    @Override
    public ApiException serverError(boolean overloaded) {
        return overloaded
                ? new ApiException(503, "server_error", "The server is overloaded, please retry later", null,
                        "overloaded")
                : new ApiException(500, "server_error", "The server had an error while processing your request",
                        null, null);
    }

    static String finishReason(Completion.Choice choice) {
        return switch (choice.stop()) {
            case MAX_TOKENS -> "length";
            case TOOL_USE -> "tool_calls";
            case END, STOP_SEQUENCE -> "stop";
        };
    }

    private static String chunk(Completion c, int index, String delta, String finishReason) {
        StringBuilder out = new StringBuilder(200);
        prefix(out, c).append(",\"choices\":[{\"index\":").append(index).append(",\"delta\":").append(delta)
                .append(",\"logprobs\":null,\"finish_reason\":").append(finishReason).append("}]}\n\n");
        return out.toString();
    }

    private static StringBuilder prefix(StringBuilder out, Completion c) {
        return out.append("data: {\"id\":").append(Json.quote(c.id()))
                .append(",\"object\":\"chat.completion.chunk\",\"created\":").append(c.created())
                .append(",\"model\":").append(Json.quote(c.model()))
                .append(",\"system_fingerprint\":\"").append(FINGERPRINT).append('"');
    }

    static void usage(StringBuilder out, Completion c) {
        out.append("{\"prompt_tokens\":").append(c.inputTokens())
                .append(",\"completion_tokens\":").append(c.outputTokens())
                .append(",\"total_tokens\":").append(c.inputTokens() + c.outputTokens())
                .append(",\"prompt_tokens_details\":{\"cached_tokens\":").append(c.cachedTokens())
                .append("},\"completion_tokens_details\":{\"reasoning_tokens\":0}}");
    }
}
