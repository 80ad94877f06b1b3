package dev.zerolayer.bench.replay;

/**
 * One request of the replay as every policy sees it: arrival, token counts, the derived complexity, the prompt's full
 * 16-token blocks as ids (a shared template prefix, then blocks unique to the request) and how many of them the
 * template covers; {@code spikeCopy} marks the extra arrivals of a scripted load spike.
 */
public record SimRequest(int id, String source, double arrival, int contextTokens, int generatedTokens,
        double complexity, int template, int sharedBlocks, long[] blocks, boolean spikeCopy) {

    public static final int BLOCK_TOKENS = 16;
}
