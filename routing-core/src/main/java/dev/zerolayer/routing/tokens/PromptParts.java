package dev.zerolayer.routing.tokens;

import java.util.List;

/**
 * Everything of a request that costs input tokens, as the gateway reads it: the texts in wire order (system first,
 * then each message's text, tool calls' inputs and tool results; these are also what prefix blocks hash), the number
 * of messages (each costs a few tokens of framing), texts that cost tokens but are not part of the conversation (tool
 * definitions), and tokens counted already (images and documents priced by {@link MediaTokens}, prompts sent as token
 * ids).
 */
public record PromptParts(List<String> texts, int messages, List<String> extraTexts, int countedTokens) {

    public PromptParts {
        texts = List.copyOf(texts);
        extraTexts = List.copyOf(extraTexts);
        if (messages < 0 || countedTokens < 0) {
            throw new IllegalArgumentException("messages and countedTokens must be >= 0");
        }
    }

    /** Texts alone, as many messages as texts. */
    public static PromptParts ofTexts(List<String> texts) {
        return new PromptParts(texts, texts.size(), List.of(), 0);
    }
}
