package dev.zerolayer.simulator.node;

import dev.zerolayer.simulator.latency.OutputLength;

/**
 * What every node of a fleet shares: KV block size and hash seed (the same as router and registry use), the request
 * body limit, the waiting-queue bound, the output-length distribution and the default token limit of OpenAI requests.
 */
public record NodeSettings(int blockSize, long hashSeed, long maxBodyBytes, int maxWaiting,
        OutputLength outputLength, int defaultMaxTokens) {

    public NodeSettings {
        if (blockSize < 1 || maxBodyBytes < 1 || maxWaiting < 0 || defaultMaxTokens < 1) {
            throw new IllegalArgumentException("block size, body limit and default max tokens must be >= 1");
        }
    }

    /** Defaults: block size 16, seed 0, 10 MB bodies, 4096 waiting, median 200 tokens (sigma 0.86), 4096 max tokens. */
    public static NodeSettings defaults() {
        return new NodeSettings(16, 0L, 10L * 1024 * 1024, 4096, new OutputLength(200, 0.86), 4096);
    }
}
