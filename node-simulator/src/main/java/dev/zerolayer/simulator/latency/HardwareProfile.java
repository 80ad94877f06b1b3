package dev.zerolayer.simulator.latency;

import java.time.Duration;
import java.util.Objects;

/**
 * What one simulated serving node is made of and how fast it serves: GPUs, the reference model it runs, prefill and
 * single-stream decode rates from public benchmarks (docs/simulator.md cites each), batch slowdown, warm-up, capacity,
 * KV-cache size in blocks and NVLink traffic per processed token.
 *
 * @param name                       profile name used in the fleet configuration (e.g. {@code A100-80Gx8})
 * @param gpuName                    the GPU model name as dcgm-exporter reports it ({@code modelName} label)
 * @param gpus                       GPUs in the node (tensor parallel over all of them)
 * @param memoryPerGpuMiB            framebuffer per GPU in MiB
 * @param model                      reference model served (vLLM's {@code model_name} label)
 * @param weightsMiB                 model weights over all GPUs, in MiB
 * @param prefillTokensPerSecond     prompt tokens prefilled per second for one request
 * @param decodeTokensPerSecond      tokens generated per second by one request running alone
 * @param batchSlowdown              extra inter-token time per additional running request (0.03 = +3 % each)
 * @param firstTokenOverhead         fixed part of the time to first token (scheduling, first decode step)
 * @param warmup                     CUDA-graph warm-up a cold node goes through on its first request
 * @param capacity                   requests running at once before new ones wait
 * @param kvBlocks                   KV-cache capacity in blocks of 16 tokens
 * @param kvBlockBytes               bytes one KV block occupies (all layers, all GPUs)
 * @param nvlinkCapacityBytesPerSecond NVLink TX + RX bytes per second at saturation, all GPUs (0: no NVLink)
 * @param nvlinkBytesPerToken        NVLink bytes sent per processed token by the tensor-parallel all-reduces, all GPUs
 */
public record HardwareProfile(
        String name,
        String gpuName,
        int gpus,
        long memoryPerGpuMiB,
        String model,
        long weightsMiB,
        double prefillTokensPerSecond,
        double decodeTokensPerSecond,
        double batchSlowdown,
        Duration firstTokenOverhead,
        Duration warmup,
        int capacity,
        long kvBlocks,
        long kvBlockBytes,
        double nvlinkCapacityBytesPerSecond,
        double nvlinkBytesPerToken) {

    public HardwareProfile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(gpuName, "gpuName");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(firstTokenOverhead, "firstTokenOverhead");
        Objects.requireNonNull(warmup, "warmup");
        if (gpus < 1 || memoryPerGpuMiB < 1 || capacity < 1 || kvBlocks < 1 || kvBlockBytes < 1) {
            throw new IllegalArgumentException("profile " + name + ": counts and sizes must be >= 1");
        }
        if (!(prefillTokensPerSecond > 0) || !(decodeTokensPerSecond > 0) || batchSlowdown < 0
                || nvlinkCapacityBytesPerSecond < 0 || nvlinkBytesPerToken < 0) {
            throw new IllegalArgumentException("profile " + name + ": rates must be > 0");
        }
    }

    /** Framebuffer of all GPUs in MiB. */
    public long totalMemoryMiB() {
        return gpus * memoryPerGpuMiB;
    }

    /** The same profile with another capacity and KV size (fleet overrides); values <= 0 keep the profile's. */
    public HardwareProfile withLimits(int capacity, long kvBlocks) {
        return new HardwareProfile(name, gpuName, gpus, memoryPerGpuMiB, model, weightsMiB, prefillTokensPerSecond,
                decodeTokensPerSecond, batchSlowdown, firstTokenOverhead, warmup,
                capacity > 0 ? capacity : this.capacity, kvBlocks > 0 ? kvBlocks : this.kvBlocks, kvBlockBytes,
                nvlinkCapacityBytesPerSecond, nvlinkBytesPerToken);
    }
}
