package dev.zerolayer.simulator.node;

import dev.zerolayer.simulator.faults.ActiveFault;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.latency.TtftHistogram;
import java.time.Instant;
import java.util.List;

/**
 * One node's observable state at an instant, the input of its telemetry and metrics: status, real and synthetic load,
 * KV cache, processing rates, hardware error counters, token and request counters and the TTFT histogram.
 *
 * @param running            requests running now (real)
 * @param waiting            requests waiting now (real: warm-up stall and queue)
 * @param syntheticRunning   extra running requests of a load spike
 * @param syntheticWaiting   extra waiting requests of a load spike
 * @param tokensPerSecond    prompt and generated tokens processed over the last second
 * @param generatedPerSecond generated tokens over the last second
 * @param evictionsPerSecond KV blocks evicted over the last second
 * @param xidErrors          XID errors since start
 * @param lastXid            the last XID error code (0: none)
 * @param pcieReplays        PCIe replays since start
 */
public record NodeSnapshot(
        Instant at,
        NodeStatus status,
        int running,
        int waiting,
        int syntheticRunning,
        int syntheticWaiting,
        int capacity,
        long kvBlocksUsed,
        long kvCapacity,
        double kvUsage,
        double tokensPerSecond,
        double generatedPerSecond,
        double evictionsPerSecond,
        long xidErrors,
        int lastXid,
        long pcieReplays,
        long promptTokens,
        long generationTokens,
        long prefixQueriedTokens,
        long prefixHitTokens,
        long finishedStop,
        long finishedLength,
        long failed,
        TtftHistogram.Snapshot ttft,
        List<ActiveFault> faults) {

    public NodeSnapshot {
        faults = List.copyOf(faults);
    }

    public int totalRunning() {
        return running + syntheticRunning;
    }

    public int totalWaiting() {
        return waiting + syntheticWaiting;
    }

    public boolean warmingUp() {
        return status == NodeStatus.WARMING;
    }

    /** The intensity of an active fault, or 0. */
    public double intensity(FaultType type) {
        return faults.stream().filter(f -> f.type() == type).mapToDouble(ActiveFault::intensity).findFirst()
                .orElse(0.0);
    }

    public boolean has(FaultType type) {
        return faults.stream().anyMatch(f -> f.type() == type);
    }
}
