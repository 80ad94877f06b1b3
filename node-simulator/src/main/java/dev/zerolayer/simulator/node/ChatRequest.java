package dev.zerolayer.simulator.node;

import java.util.List;

/**
 * A parsed chat request of either API, as much of it as a simulated node needs: model, token limit, streaming flags and
 * the prompt's texts in order (system first) with its message count. Prompt text never leaves the node.
 *
 * @param model        the model the client asked for (echoed in the response)
 * @param maxTokens    the most tokens to generate
 * @param stream       whether the response is an SSE stream
 * @param includeUsage OpenAI {@code stream_options.include_usage}: a final usage chunk
 * @param texts        the prompt's texts, system first
 * @param messages     messages counted for the input token overhead (a system prompt counts as one)
 */
public record ChatRequest(String model, int maxTokens, boolean stream, boolean includeUsage, List<String> texts,
        int messages) {

    public ChatRequest {
        texts = List.copyOf(texts);
    }
}
