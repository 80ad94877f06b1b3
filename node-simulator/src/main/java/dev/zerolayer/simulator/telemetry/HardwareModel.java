package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.latency.HardwareProfile;
import dev.zerolayer.simulator.node.NodeSnapshot;

/**
 * Derives a node's hardware signals from its simulated load: SM activity from running requests over capacity (a
 * warm-up keeps the SMs half busy, SM saturation holds them above 95 %), NVLink traffic from tokens processed times the
 * all-reduce bytes per token (a bandwidth bottleneck drives it to saturation), framebuffer from weights, runtime and
 * KV blocks in use, and fragmentation from KV usage and eviction churn.
 */
public final class HardwareModel {

    /** Framebuffer each GPU spends on CUDA context, activations and graphs besides weights and KV blocks. */
    static final long RUNTIME_MIB_PER_GPU = 1024;
    private static final long MIB = 1024L * 1024L;

    /** The hardware view of one node at one instant; ratios in [0,1]. */
    public record HardwareState(double smActive, double nvlinkTxBytesPerSecond, double nvlinkRxBytesPerSecond,
            double nvlinkSaturation, long framebufferUsedMiB, long framebufferFreeMiB, double fragmentation) {
    }

    private HardwareModel() {
    }

    public static HardwareState of(HardwareProfile profile, NodeSnapshot node) {
        double busy = Math.min(1.0, node.totalRunning() / (double) node.capacity());
        double sm = 0.03 + 0.85 * busy;
        if (node.warmingUp()) {
            sm = Math.max(sm, 0.45);
        }
        if (node.has(FaultType.SM_SATURATION)) {
            sm = Math.max(sm, 0.955 + 0.04 * node.intensity(FaultType.SM_SATURATION));
        }
        sm = clamp(sm);

        double syntheticTokens = node.syntheticRunning() * profile.decodeTokensPerSecond();
        double perDirection = (node.tokensPerSecond() + syntheticTokens) * profile.nvlinkBytesPerToken();
        double capacity = profile.nvlinkCapacityBytesPerSecond();
        double saturation = capacity > 0 ? clamp(2 * perDirection / capacity) : 0.0;
        if (capacity > 0 && node.has(FaultType.GPU_BANDWIDTH)) {
            saturation = Math.max(saturation, 0.85 + 0.1 * node.intensity(FaultType.GPU_BANDWIDTH));
            perDirection = saturation * capacity / 2;
        }
        if (capacity > 0) {
            perDirection = Math.min(perDirection, capacity / 2);
        }

        long total = profile.totalMemoryMiB();
        long kvMiB = node.kvBlocksUsed() * profile.kvBlockBytes() / MIB;
        long used = Math.min(total, profile.weightsMiB() + RUNTIME_MIB_PER_GPU * profile.gpus() + kvMiB);
        double churn = Math.min(1.0, node.evictionsPerSecond() / Math.max(1.0, node.kvCapacity() * 0.01));
        double fragmentation = clamp(0.02 + 0.1 * node.kvUsage() + 0.6 * churn);
        return new HardwareState(sm, perDirection, perDirection, saturation, used, total - used, fragmentation);
    }

    private static double clamp(double value) {
        return Math.max(0.0, Math.min(1.0, value));
    }
}
