package dev.zerolayer.simulator.node;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A parsed request of either chat API (or the legacy completions API), as much of it as a simulated node needs: model,
 * token limit, streaming flags, the prompt's texts in order (system first) with its message count, the tool
 * definitions' JSON (they cost input tokens), the tools offered and the choice among them, thinking, stop sequences,
 * the number of choices, whether the last turn answers a tool call, and the latest user text (a prompt may name a tool,
 * or quote values in backticks). Prompt text never leaves the node.
 *
 * @param model          the model the client asked for (echoed in the response)
 * @param maxTokens      the most tokens to generate
 * @param stream         whether the response is an SSE stream
 * @param includeUsage   OpenAI {@code stream_options.include_usage}: a final usage chunk
 * @param texts          the prompt's texts, system first
 * @param messages       messages counted for the input token overhead (a system prompt counts as one)
 * @param definitions    tool definitions as JSON (counted as input tokens)
 * @param tools          the tools offered
 * @param toolChoice     how a tool must (or may) be chosen
 * @param thinking       whether to think first, and whether the thinking text is omitted from the answer
 * @param stopSequences  sequences that end the text where they appear
 * @param choices        how many answers (OpenAI {@code n})
 * @param afterToolResult the last message carries a tool's result (the model now answers in text)
 * @param latestUserText the text of the last user message ("" when none)
 * @param legacy         a legacy {@code /v1/completions} request
 * @param minTokens      the fewest tokens of text to generate (vLLM's {@code min_tokens}; {@code ignore_eos} asks for
 *                       {@code maxTokens}); 0 when not asked
 * @param prefill        the start of the answer the client wrote itself (a trailing Anthropic assistant message, or
 *                       the final assistant message with vLLM's {@code continue_final_message}); null when none
 */
public record ChatRequest(String model, int maxTokens, boolean stream, boolean includeUsage, List<String> texts,
        int messages, List<String> definitions, List<Tool> tools, ToolChoice toolChoice, Thinking thinking,
        List<String> stopSequences, int choices, boolean afterToolResult, String latestUserText, boolean legacy,
        int minTokens, String prefill) {

    public ChatRequest {
        texts = List.copyOf(texts);
        definitions = List.copyOf(definitions);
        tools = List.copyOf(tools);
        stopSequences = List.copyOf(stopSequences);
    }

    /** A plain request: no tools, no thinking, no stop sequences, one choice. */
    public ChatRequest(String model, int maxTokens, boolean stream, boolean includeUsage, List<String> texts,
            int messages) {
        this(model, maxTokens, stream, includeUsage, texts, messages, List.of(), List.of(), ToolChoice.AUTO,
                Thinking.OFF, List.of(), 1, false, "", false, 0, null);
    }

    /** A tool offered: its name and the JSON schema of its input. */
    public record Tool(String name, JsonNode schema) {
    }

    /** The tool choice: none, the model's call (auto), any tool, or one named tool. */
    public record ToolChoice(Mode mode, String name) {

        public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);

        public enum Mode { NONE, AUTO, ANY, TOOL }
    }

    /** Thinking asked for, and whether its text is left out of the answer ({@code display: omitted}). */
    public record Thinking(boolean enabled, boolean omitted) {

        public static final Thinking OFF = new Thinking(false, false);
    }
}
