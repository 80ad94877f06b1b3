package dev.zerolayer.bench.replay;

/**
 * One invocation of the Azure LLM inference trace 2023: which file it came from, its arrival in seconds after the
 * trace's first arrival (both files share one clock), and its context and generated token counts.
 */
public record TraceRequest(String source, double arrivalSeconds, int contextTokens, int generatedTokens) {

    public TraceRequest {
        if (arrivalSeconds < 0 || contextTokens < 0 || generatedTokens < 0) {
            throw new IllegalArgumentException("arrival and token counts must be >= 0");
        }
    }
}
