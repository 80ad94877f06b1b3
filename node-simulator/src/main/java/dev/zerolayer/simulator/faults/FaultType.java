package dev.zerolayer.simulator.faults;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The hardware and serving failures a simulated node can be told to show, by their wire names. */
public enum FaultType {
    /** SM activity above 95 %; prefill and decode slow down. */
    SM_SATURATION,
    /** The node stalls in a CUDA-graph warm-up (telemetry says warming up), then serves. */
    CUDA_GRAPH_WARMUP,
    /** Synthetic extra load: running and waiting requests jump; real requests share the node with it. */
    LOAD_SPIKE,
    /** Time to first byte rises; chunk intervals stay steady. */
    GATEWAY_CONGESTION,
    /**
     * A share of requests (the intensity) gets its first token 300–900 ms late without failing (head-of-line blocking,
     * a pause); the rest, and every chunk after a first token, keep their pace; nothing shows in telemetry.
     */
    TTFT_SPIKES,
    /** Time to first byte steady; chunk intervals vary widely; NVLink saturates. */
    GPU_BANDWIDTH,
    /** A share of requests (the intensity) fails with 500 or 529/503 in the API's own error shape. */
    ERRORS,
    /** The node's server is gone (connections refused) and its KV cache lost; it restarts cold when the fault ends. */
    CRASH,
    /** A share of streams (the intensity) dies mid-way: the connection closes after some chunks. */
    STREAM_CUT,
    /**
     * A share of streams (the intensity) stops mid-way without closing: no more bytes, the connection held open (and
     * the node's slot taken) until the client gives up.
     */
    STREAM_STALL,
    /** XID errors and PCIe replays climb; some requests pay retries, a few fail. */
    PCIE_ERRORS;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<FaultType> fromWireName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        return Arrays.stream(values()).filter(type -> type.wireName().equals(name)).findFirst();
    }

    public static String wireNames() {
        return String.join(", ", Arrays.stream(values()).map(FaultType::wireName).toList());
    }
}
