package dev.zerolayer.bench.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scripted faults over the timeline, fixed before any run: an SM saturation (node {@value #SM_SLOWDOWN}x slower,
 * SM reported above 95 %), a CUDA-graph warm-up (the node restarts and admits nothing for the fault's duration), a load
 * spike (three arrivals for each one of the trace), a crash (the node dies and restarts cold when the fault ends) and a
 * bandwidth degradation (node-simulator's {@code gpu_bandwidth} at intensity {@value #BANDWIDTH_INTENSITY}: each
 * inter-token time + uniform(0, 500 ms x intensity), applied as its mean).
 */
public record FaultScript(List<Fault> faults) {

    static final double SM_SLOWDOWN = 5.0;
    static final double BANDWIDTH_INTENSITY = 0.2;
    static final double BANDWIDTH_EXTRA_SECONDS = 0.5 * BANDWIDTH_INTENSITY / 2;

    /** The kinds of scripted fault. */
    public enum Type {
        SM_SATURATION("sm_saturation"), CUDA_GRAPH_WARMUP("cuda_graph_warmup"), LOAD_SPIKE("load_spike"),
        CRASH("crash"), GPU_BANDWIDTH("gpu_bandwidth");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /** One fault: type, node (null for a load spike), start and duration in seconds of the trace clock. */
    public record Fault(Type type, String node, double start, double duration) {

        public double end() {
            return start + duration;
        }

        public String label() {
            return type.wireName() + (node == null ? "" : " " + node);
        }
    }

    public FaultScript {
        faults = List.copyOf(faults);
    }

    /** The full run: one fault of each kind, ten minutes apart, on nodes of every tier. */
    public static FaultScript standard() {
        return new FaultScript(List.of(
                new Fault(Type.SM_SATURATION, "sonnet-a100-40g-0", 600, 120),
                new Fault(Type.CUDA_GRAPH_WARMUP, "haiku-l4-0", 1200, 30),
                new Fault(Type.LOAD_SPIKE, null, 1800, 10),
                new Fault(Type.CRASH, "opus-a100-80g-1", 2400, 120),
                new Fault(Type.GPU_BANDWIDTH, "sonnet-a100-40g-1", 3000, 120)));
    }

    public static FaultScript none() {
        return new FaultScript(List.of());
    }

    /** Load-spike windows as [start, end). */
    public List<double[]> spikeWindows() {
        List<double[]> windows = new ArrayList<>();
        for (Fault fault : faults) {
            if (fault.type() == Type.LOAD_SPIKE) {
                windows.add(new double[] {fault.start(), fault.end()});
            }
        }
        return windows;
    }

    /** Schedules every node fault on the loop (a load spike is in the workload already). */
    public void schedule(EventLoop loop, Map<String, SimNode> nodes) {
        for (Fault fault : faults) {
            if (fault.type() == Type.LOAD_SPIKE) {
                continue;
            }
            SimNode node = nodes.get(fault.node());
            if (node == null) {
                throw new IllegalArgumentException("fault on unknown node " + fault.node());
            }
            switch (fault.type()) {
                case SM_SATURATION -> {
                    loop.at(fault.start(), () -> node.smSaturation(true, SM_SLOWDOWN));
                    loop.at(fault.end(), () -> node.smSaturation(false, 1.0));
                }
                case GPU_BANDWIDTH -> {
                    loop.at(fault.start(), () -> node.bandwidthDegradation(true, BANDWIDTH_EXTRA_SECONDS));
                    loop.at(fault.end(), () -> node.bandwidthDegradation(false, 0));
                }
                case CRASH -> {
                    loop.at(fault.start(), node::crash);
                    loop.at(fault.end(), () -> node.restart(node.profile().warmupSeconds()));
                }
                case CUDA_GRAPH_WARMUP -> loop.at(fault.start(), () -> node.restart(fault.duration()));
                default -> throw new IllegalStateException();
            }
        }
    }
}
