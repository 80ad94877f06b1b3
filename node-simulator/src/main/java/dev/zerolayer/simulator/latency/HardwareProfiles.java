package dev.zerolayer.simulator.latency;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The built-in hardware profiles of the seed's three clusters; every rate comes from a published benchmark and every
 * derived number is computed below from those figures (sources and derivations: docs/simulator.md).
 */
public final class HardwareProfiles {

    private static final long MIB = 1024L * 1024L;
    /** vLLM's default {@code gpu_memory_utilization}: the share of the framebuffer given to weights + KV cache. */
    private static final double GPU_MEMORY_UTILIZATION = 0.9;
    /** Tokens per KV block (vLLM's default block size, and SPEC section 6). */
    private static final int BLOCK_TOKENS = 16;
    /** Extra inter-token time per additional running request: 8 concurrent streams ran at 6.6x one (Musgrave). */
    private static final double BATCH_SLOWDOWN = (8.0 / 6.6 - 1.0) / 7.0;

    /**
     * 8x A100-SXM4-80GB, Llama-2-70B class (opus). Prefill: TensorRT-LLM A100 FP16 LLaMA-70B TP4, first token 47 ms at
     * 128 and 377 ms at 2048 input tokens, so 1920 tokens / 0.330 s = 5,818 tokens/s and 25 ms fixed. Decode: 29 ms per
     * token for one user on 8 A100s (PyTorch/IBM), 34.5 tokens/s.
     */
    public static final HardwareProfile A100_80G_X8 = profile("A100-80Gx8", "NVIDIA A100-SXM4-80GB", 8, 81_920,
            "meta-llama/Llama-2-70b-chat-hf", 70_000_000_000L * 2, 5_818, 1000.0 / 29, 25, 800, 32,
            kvBytesPerToken(80, 8, 128), 600e9, allReduceBytesPerToken(80, 8192, 8));

    /**
     * 4x A100-SXM4-40GB, Llama-2-13B class (sonnet). Prefill: TensorRT-LLM A100 FP16 LLaMA-7B TP1, 16 ms at 128 and
     * 133 ms at 2048 tokens = 16,410 tokens/s, scaled by parameters 7/13 = 8,836 tokens/s. Decode: Llama-3.1-8B on one
     * A100-40GB at 75 tokens/s for one request (Musgrave), scaled by weight bytes 8/13 = 46 tokens/s.
     */
    public static final HardwareProfile A100_40G_X4 = profile("A100-40Gx4", "NVIDIA A100-SXM4-40GB", 4, 40_960,
            "meta-llama/Llama-2-13b-chat-hf", 13_000_000_000L * 2, 16_410.0 * 7 / 13, 75.0 * 8 / 13, 8, 550, 24,
            kvBytesPerToken(40, 40, 128), 600e9, allReduceBytesPerToken(40, 5120, 4));

    /**
     * 2x L4, Llama-3-8B class in FP8 (haiku). Prefill: TensorRT-LLM L40S FP8 LLaMA-7B, 14 ms at 128 and 73 ms at 2048
     * tokens = 32,542 tokens/s, scaled by dense FP8 tensor throughput L4/L40S (242.5/733 TFLOPS) and parameters 7/8 =
     * 9,420 tokens/s. Decode: memory-bound roofline, 2 x 300 GB/s at the 77 % of bandwidth Musgrave measured, over
     * 8.03 GB of FP8 weights = 57.5 tokens/s. No NVLink (PCIe only).
     */
    public static final HardwareProfile L4_X2 = profile("L4x2", "NVIDIA L4", 2, 23_034,
            "meta-llama/Meta-Llama-3-8B-Instruct", 8_030_000_000L, 32_542.0 * (242.5 / 733.0) * 7 / 8,
            2 * 300e9 * 0.77 / 8.03e9, 10, 300, 16, kvBytesPerToken(32, 8, 128), 0, 0);

    private static final Map<String, HardwareProfile> BUILT_IN = List.of(A100_80G_X8, A100_40G_X4, L4_X2).stream()
            .collect(Collectors.toUnmodifiableMap(p -> normalise(p.name()), Function.identity()));

    private HardwareProfiles() {
    }

    /** A built-in profile by name (case-insensitive; {@code A100-80G×8} and {@code A100-80Gx8} are the same). */
    public static HardwareProfile named(String name) {
        HardwareProfile profile = name == null ? null : BUILT_IN.get(normalise(name));
        if (profile == null) {
            throw new IllegalArgumentException("unknown hardware profile '" + name + "'; known: " + names());
        }
        return profile;
    }

    public static List<String> names() {
        return List.of(A100_80G_X8.name(), A100_40G_X4.name(), L4_X2.name());
    }

    private static String normalise(String name) {
        return name.trim().toLowerCase(Locale.ROOT).replace('×', 'x');
    }

    private static HardwareProfile profile(String name, String gpuName, int gpus, long memoryPerGpuMiB, String model,
            long weightBytes, double prefill, double decode, long overheadMs, long warmupMs, int capacity,
            long kvBytesPerToken, double nvlinkPerGpuBytesPerSecond, double nvlinkBytesPerToken) {
        long weightsMiB = weightBytes / MIB;
        long blockBytes = kvBytesPerToken * BLOCK_TOKENS;
        long kvMiB = (long) (gpus * memoryPerGpuMiB * GPU_MEMORY_UTILIZATION) - weightsMiB;
        long kvBlocks = kvMiB * MIB / blockBytes;
        return new HardwareProfile(name, gpuName, gpus, memoryPerGpuMiB, model, weightsMiB, prefill, decode,
                BATCH_SLOWDOWN, Duration.ofMillis(overheadMs), Duration.ofMillis(warmupMs), capacity, kvBlocks,
                blockBytes, gpus * nvlinkPerGpuBytesPerSecond, nvlinkBytesPerToken);
    }

    /** K and V, FP16, every layer: 2 x layers x kv heads x head dim x 2 bytes. */
    private static long kvBytesPerToken(int layers, int kvHeads, int headDim) {
        return 2L * layers * kvHeads * headDim * 2;
    }

    /**
     * Two ring all-reduces of the FP16 hidden state per layer; each GPU sends 2(tp-1)/tp of the buffer per all-reduce:
     * bytes sent by all GPUs together per token.
     */
    private static double allReduceBytesPerToken(int layers, int hidden, int tp) {
        return layers * 2.0 * hidden * 2 * (2.0 * (tp - 1) / tp) * tp;
    }
}
