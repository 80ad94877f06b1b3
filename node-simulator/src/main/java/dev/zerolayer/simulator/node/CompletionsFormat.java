package dev.zerolayer.simulator.node;

import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI legacy Completions API ({@code /v1/completions}): a {@code text_completion} object with one choice per
 * {@code n}, or chunks of the same shape (one per token, then a finish chunk per choice, a usage chunk when asked, and
 * {@code data: [DONE]}); errors in OpenAI's shape.
 */
final class CompletionsFormat implements ApiFormat {

    private final OpenAiFormat openAi = new OpenAiFormat();

    @Override
    public String path() {
        return "/v1/completions";
    }

    @Override
    public String toolIdPrefix() {
        return "call_";
    }

    @Override
    public String message(Completion c) {
        StringBuilder out = new StringBuilder(256 + c.outputTokens() * 8);
        prefix(out, c).append(",\"choices\":[");
        for (int i = 0; i < c.choices().size(); i++) {
            Completion.Choice choice = c.choices().get(i);
            out.append(i == 0 ? "" : ",").append("{\"text\":");
            Json.quote(out, choice.text());
            out.append(",\"index\":").append(i).append(",\"logprobs\":null,\"finish_reason\":\"")
                    .append(OpenAiFormat.finishReason(choice)).append("\"}");
        }
        out.append("],\"usage\":");
        OpenAiFormat.usage(out, c);
        return out.append('}').toString();
    }

    @Override
    public List<Frame> frames(Completion c, boolean includeUsage) {
        List<Frame> frames = new ArrayList<>(c.outputTokens() + 2 * c.choices().size() + 2);
        for (int i = 0; i < c.choices().size(); i++) {
            Completion.Choice choice = c.choices().get(i);
            for (String piece : choice.pieces()) {
                frames.add(Frame.token(chunk(c, i, piece, "null")));
            }
            frames.add(Frame.other(chunk(c, i, "", "\"" + OpenAiFormat.finishReason(choice) + "\"")));
        }
        if (includeUsage) {
            StringBuilder out = new StringBuilder(256).append("data: ");
            prefix(out, c).append(",\"choices\":[],\"usage\":");
            OpenAiFormat.usage(out, c);
            frames.add(Frame.other(out.append("}\n\n").toString()));
        }
        frames.add(Frame.other("data: [DONE]\n\n"));
        return frames;
    }

    private static String chunk(Completion c, int index, String text, String finishReason) {
        StringBuilder out = new StringBuilder(160).append("data: ");
        prefix(out, c).append(",\"choices\":[{\"text\":").append(Json.quote(text)).append(",\"index\":").append(index)
                .append(",\"logprobs\":null,\"finish_reason\":").append(finishReason).append("}]}\n\n");
        return out.toString();
    }

    private static StringBuilder prefix(StringBuilder out, Completion c) {
        return out.append("{\"id\":").append(Json.quote(c.id())).append(",\"object\":\"text_completion\",\"created\":")
                .append(c.created()).append(",\"model\":").append(Json.quote(c.model()))
                .append(",\"system_fingerprint\":\"").append(OpenAiFormat.FINGERPRINT).append('"');
    }

    @Override
    public String error(ApiException error) {
        return openAi.error(error);
    }

    @Override
    public ApiException serverError(boolean overloaded) {
        return openAi.serverError(overloaded);
    }
}
