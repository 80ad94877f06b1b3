package dev.zerolayer.simulator.node;

import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI Chat Completions API: a {@code chat.completion} object, or {@code chat.completion.chunk} SSE frames (role
 * chunk, one content chunk per token, a finish chunk, with {@code stream_options.include_usage} a usage chunk with empty
 * choices) closed by {@code data: [DONE]}; errors as {@code {"error":{"message","type","param","code"}}}; finish reasons
 * {@code stop} and {@code length}. Usage reports cached prompt tokens in {@code prompt_tokens_details}.
 */
final class OpenAiFormat implements ApiFormat {

    static final String FINGERPRINT = "fp_zerolayer_sim";

    @Override
    public String path() {
        return "/v1/chat/completions";
    }

    @Override
    public String message(Completion c) {
        StringBuilder out = new StringBuilder(320 + c.outputTokens() * 8);
        out.append("{\"id\":").append(Json.quote(c.id())).append(",\"object\":\"chat.completion\",\"created\":")
                .append(c.created()).append(",\"model\":").append(Json.quote(c.model()))
                .append(",\"system_fingerprint\":\"").append(FINGERPRINT).append('"')
                .append(",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":");
        Json.quote(out, c.text());
        out.append(",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"").append(finishReason(c))
                .append("\"}],\"usage\":");
        usage(out, c);
        return out.append('}').toString();
    }

    @Override
    public List<String> head(Completion c) {
        List<String> frames = new ArrayList<>(2);
        frames.add(chunk(c, "{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}", "null"));
        if (c.outputTokens() > 0) {
            frames.add(delta(c, 0));
        }
        return frames;
    }

    @Override
    public String delta(Completion c, int index) {
        return chunk(c, "{\"content\":" + Json.quote(c.pieces()[index]) + "}", "null");
    }

    @Override
    public List<String> tail(Completion c, boolean includeUsage) {
        List<String> frames = new ArrayList<>(3);
        frames.add(chunk(c, "{}", "\"" + finishReason(c) + "\""));
        if (includeUsage) {
            StringBuilder out = new StringBuilder(256);
            prefix(out, c).append(",\"choices\":[],\"usage\":");
            usage(out, c);
            frames.add(out.append("}\n\n").toString());
        }
        frames.add("data: [DONE]\n\n");
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

    private static String finishReason(Completion c) {
        return c.capped() ? "length" : "stop";
    }

    private static String chunk(Completion c, String delta, String finishReason) {
        StringBuilder out = new StringBuilder(200);
        prefix(out, c).append(",\"choices\":[{\"index\":0,\"delta\":").append(delta)
                .append(",\"logprobs\":null,\"finish_reason\":").append(finishReason).append("}]}\n\n");
        return out.toString();
    }

    private static StringBuilder prefix(StringBuilder out, Completion c) {
        return out.append("data: {\"id\":").append(Json.quote(c.id()))
                .append(",\"object\":\"chat.completion.chunk\",\"created\":").append(c.created())
                .append(",\"model\":").append(Json.quote(c.model()))
                .append(",\"system_fingerprint\":\"").append(FINGERPRINT).append('"');
    }

    private static void usage(StringBuilder out, Completion c) {
        out.append("{\"prompt_tokens\":").append(c.inputTokens())
                .append(",\"completion_tokens\":").append(c.outputTokens())
                .append(",\"total_tokens\":").append(c.inputTokens() + c.outputTokens())
                .append(",\"prompt_tokens_details\":{\"cached_tokens\":").append(c.cachedTokens())
                .append("},\"completion_tokens_details\":{\"reasoning_tokens\":0}}");
    }
}
