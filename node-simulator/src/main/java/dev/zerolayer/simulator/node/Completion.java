package dev.zerolayer.simulator.node;

import java.util.List;

/**
 * What a node generated for one request: response id, the model echoed back, input tokens (and how many of them were
 * served from the prefix cache), and one or more choices.
 */
public record Completion(String id, String model, long created, int inputTokens, int cachedTokens,
        List<Choice> choices) {

    public Completion {
        choices = List.copyOf(choices);
    }

    /** One answer: thinking (pieces, one token each, with its signature), text pieces, or a tool call, and why it stopped. */
    public record Choice(String[] thinking, String signature, boolean thinkingShown, String[] pieces,
            ToolCall toolCall, Stop stop, String stopSequence) {

        /** Tokens this choice generated: thinking, text and the tool call's input. */
        public int outputTokens() {
            return thinking.length + pieces.length + (toolCall == null ? 0 : toolCall.pieces().length);
        }

        public String text() {
            return TextGenerator.text(pieces);
        }

        public String thinkingText() {
            return TextGenerator.text(thinking);
        }
    }

    /** A call of a tool: its id, name, and its input as JSON, cut into token-sized pieces. */
    public record ToolCall(String id, String name, String inputJson, String[] pieces) {
    }

    /** Why a choice stopped. */
    public enum Stop { END, MAX_TOKENS, STOP_SEQUENCE, TOOL_USE }

    /** Tokens generated over every choice. */
    public int outputTokens() {
        int total = 0;
        for (Choice choice : choices) {
            total += choice.outputTokens();
        }
        return total;
    }

    public Choice first() {
        return choices.get(0);
    }
}
