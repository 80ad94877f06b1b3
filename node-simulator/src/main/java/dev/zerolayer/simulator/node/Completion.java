package dev.zerolayer.simulator.node;

/**
 * What a node generated for one request: response id, the model echoed back, input tokens (and how many of them were
 * served from the prefix cache), the generated pieces (one token each) and whether the token limit stopped it.
 */
public record Completion(String id, String model, long created, int inputTokens, int cachedTokens, String[] pieces,
        boolean capped) {

    public int outputTokens() {
        return pieces.length;
    }

    public String text() {
        return TextGenerator.text(pieces);
    }
}
