package dev.zerolayer.bench.replay;

/**
 * The serving numbers of one hardware profile, mirrored from node-simulator's {@code HardwareProfiles} (its jar is a
 * Spring Boot executable, not a library): prefill and single-stream decode rates, batch slowdown, first-token
 * overhead, warm-up, capacity and KV blocks, with the bytes of NVLink traffic per token and the link's capacity.
 */
public record NodeProfile(String name, double prefillTokensPerSecond, double decodeTokensPerSecond,
        double batchSlowdown, double firstTokenOverheadSeconds, double warmupSeconds, int capacity, int kvBlocks,
        double nvlinkBytesPerToken, double nvlinkCapacityBytesPerSecond) {

    /** node-simulator: 8 concurrent streams ran at 6.6x one (Musgrave), so +3.0 % per additional running request. */
    public static final double BATCH_SLOWDOWN = (8.0 / 6.6 - 1.0) / 7.0;

    /** {@code A100-80Gx8}, Llama-2-70B class (opus): 5,818 prefill tokens/s, 34.5 decode tokens/s, 25 ms, 800 ms. */
    public static final NodeProfile A100_80G_X8 = new NodeProfile("A100-80Gx8", 5_818, 1000.0 / 29, BATCH_SLOWDOWN,
            0.025, 0.800, 32, 91_262, allReduce(80, 8192, 8), 8 * 600e9);

    /** {@code A100-40Gx4}, Llama-2-13B class (sonnet): 8,836 prefill tokens/s, 46.2 decode tokens/s, 8 ms, 550 ms. */
    public static final NodeProfile A100_40G_X4 = new NodeProfile("A100-40Gx4", 16_410.0 * 7 / 13, 75.0 * 8 / 13,
            BATCH_SLOWDOWN, 0.008, 0.550, 24, 9_812, allReduce(40, 5120, 4), 4 * 600e9);

    /** {@code L4x2}, Llama-3-8B FP8 class (haiku): 9,420 prefill tokens/s, 57.5 decode tokens/s, 10 ms, 300 ms. */
    public static final NodeProfile L4_X2 = new NodeProfile("L4x2", 32_542.0 * (242.5 / 733.0) * 7 / 8,
            2 * 300e9 * 0.77 / 8.03e9, BATCH_SLOWDOWN, 0.010, 0.300, 16, 16_901, 0, 0);

    /**
     * {@code A10Gx4}, the sonnet model on older GPUs (heterogeneous fleet only): A100-40Gx4 scaled by dense FP16 tensor
     * throughput A10G/A100 (125/312 TFLOPS) for prefill and by memory bandwidth (600/1,555 GB/s) for decode; 4 x 24 GB
     * leave 60.4 of the A100s' 118 GB for KV (5,022 blocks), 16 slots.
     */
    public static final NodeProfile A10G_X4 = new NodeProfile("A10Gx4", 16_410.0 * 7 / 13 * 125 / 312,
            75.0 * 8 / 13 * 600 / 1_555, BATCH_SLOWDOWN, 0.012, 0.600, 16, 5_022, 0, 0);

    /** Seconds to prefill {@code uncachedTokens} (with the fixed first-token overhead). */
    public double prefillSeconds(int uncachedTokens) {
        return firstTokenOverheadSeconds + Math.max(0, uncachedTokens) / prefillTokensPerSecond;
    }

    /** Seconds between two tokens of one request while {@code batch} requests run. */
    public double interTokenSeconds(int batch) {
        return (1.0 + batchSlowdown * (Math.max(1, batch) - 1)) / decodeTokensPerSecond;
    }

    private static double allReduce(int layers, int hidden, int tp) {
        return layers * 2.0 * hidden * 2 * (2.0 * (tp - 1) / tp) * tp;
    }
}
