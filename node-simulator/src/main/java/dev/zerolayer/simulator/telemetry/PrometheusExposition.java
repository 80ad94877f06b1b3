package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.simulator.latency.HardwareProfile;
import dev.zerolayer.simulator.latency.TtftHistogram;
import dev.zerolayer.simulator.node.MetricsPage;
import dev.zerolayer.simulator.node.NodeSnapshot;
import dev.zerolayer.simulator.node.SimulatedNode;
import java.util.SplittableRandom;

/**
 * A node's {@code /metrics} page in the text formats of dcgm-exporter (per-GPU series labelled {@code gpu}, {@code UUID},
 * {@code device}, {@code modelName}, {@code Hostname}, {@code DCGM_FI_DRIVER_VERSION}, HELP texts as the exporter's)
 * and of vLLM (engine series labelled {@code model_name}), from the same snapshot and hardware model as its samples.
 */
public final class PrometheusExposition implements MetricsPage {

    /** Driver version label of the simulated GPUs. */
    static final String DRIVER_VERSION = "535.183.01";

    @Override
    public String render(SimulatedNode node) {
        NodeSnapshot snapshot = node.snapshot();
        HardwareProfile profile = node.spec().profile();
        HardwareModel.HardwareState hardware = HardwareModel.of(profile, snapshot);
        StringBuilder out = new StringBuilder(8192);
        String[] gpuLabels = gpuLabels(node, profile);
        int gpus = profile.gpus();

        family(out, "DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned.");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_PROF_SM_ACTIVE", labels, ratio(hardware.smActive()));
        }
        family(out, "DCGM_FI_PROF_NVLINK_TX_BYTES", "gauge",
                "The number of bytes of active NvLink tx (transmit) data including both header and payload.");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_PROF_NVLINK_TX_BYTES", labels,
                    Long.toString(Math.round(hardware.nvlinkTxBytesPerSecond() / gpus)));
        }
        family(out, "DCGM_FI_PROF_NVLINK_RX_BYTES", "gauge",
                "The number of bytes of active NvLink rx (read) data including both header and payload.");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_PROF_NVLINK_RX_BYTES", labels,
                    Long.toString(Math.round(hardware.nvlinkRxBytesPerSecond() / gpus)));
        }
        family(out, "DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_DEV_FB_FREE", labels, Long.toString(hardware.framebufferFreeMiB() / gpus));
        }
        family(out, "DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_DEV_FB_USED", labels, Long.toString(hardware.framebufferUsedMiB() / gpus));
        }
        family(out, "DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_DEV_XID_ERRORS", labels, Integer.toString(snapshot.lastXid()));
        }
        family(out, "DCGM_EXP_XID_ERRORS_COUNT", "counter", "Count of XID Errors within user-specified time window");
        if (snapshot.xidErrors() > 0) {
            for (String labels : gpuLabels) {
                sample(out, "DCGM_EXP_XID_ERRORS_COUNT", labels + ",xid=\"" + snapshot.lastXid() + "\"",
                        Long.toString(snapshot.xidErrors()));
            }
        }
        family(out, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries.");
        for (String labels : gpuLabels) {
            sample(out, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", labels, Long.toString(snapshot.pcieReplays() / gpus));
        }

        String engine = "model_name=\"" + escape(node.spec().model()) + "\"";
        family(out, "vllm:num_requests_running", "gauge", "Number of requests in model execution batches.");
        sample(out, "vllm:num_requests_running", engine, decimal(snapshot.totalRunning()));
        family(out, "vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.");
        sample(out, "vllm:num_requests_waiting", engine, decimal(snapshot.totalWaiting()));
        family(out, "vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.");
        sample(out, "vllm:kv_cache_usage_perc", engine, decimal(snapshot.kvUsage()));
        family(out, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.");
        sample(out, "vllm:prompt_tokens_total", engine, decimal(snapshot.promptTokens()));
        family(out, "vllm:generation_tokens_total", "counter", "Number of generation tokens processed.");
        sample(out, "vllm:generation_tokens_total", engine, decimal(snapshot.generationTokens()));
        family(out, "vllm:request_success_total", "counter", "Count of successfully processed requests.");
        sample(out, "vllm:request_success_total", "finished_reason=\"stop\"," + engine,
                decimal(snapshot.finishedStop()));
        sample(out, "vllm:request_success_total", "finished_reason=\"length\"," + engine,
                decimal(snapshot.finishedLength()));
        family(out, "vllm:prefix_cache_queries_total", "counter",
                "Prefix cache queries, in terms of number of queried tokens.");
        sample(out, "vllm:prefix_cache_queries_total", engine, decimal(snapshot.prefixQueriedTokens()));
        family(out, "vllm:prefix_cache_hits_total", "counter", "Prefix cache hits, in terms of number of cached tokens.");
        sample(out, "vllm:prefix_cache_hits_total", engine, decimal(snapshot.prefixHitTokens()));
        family(out, "vllm:time_to_first_token_seconds", "histogram", "Histogram of time to first token in seconds.");
        TtftHistogram.Snapshot ttft = snapshot.ttft();
        for (int i = 0; i < TtftHistogram.BOUNDS.size(); i++) {
            sample(out, "vllm:time_to_first_token_seconds_bucket",
                    "le=\"" + TtftHistogram.BOUNDS.get(i) + "\"," + engine, decimal(ttft.cumulative()[i]));
        }
        sample(out, "vllm:time_to_first_token_seconds_bucket", "le=\"+Inf\"," + engine,
                decimal(ttft.cumulative()[TtftHistogram.BOUNDS.size()]));
        sample(out, "vllm:time_to_first_token_seconds_count", engine, decimal(ttft.count()));
        sample(out, "vllm:time_to_first_token_seconds_sum", engine, Double.toString(ttft.sum()));
        return out.toString();
    }

    private static String[] gpuLabels(SimulatedNode node, HardwareProfile profile) {
        String[] labels = new String[profile.gpus()];
        SplittableRandom uuids = new SplittableRandom(node.spec().seed() * 31 + node.id().hashCode());
        for (int gpu = 0; gpu < labels.length; gpu++) {
            labels[gpu] = "gpu=\"" + gpu + "\",UUID=\"" + uuid(uuids) + "\",device=\"nvidia" + gpu
                    + "\",modelName=\"" + escape(profile.gpuName()) + "\",Hostname=\"" + escape(node.id())
                    + "\",DCGM_FI_DRIVER_VERSION=\"" + DRIVER_VERSION + "\"";
        }
        return labels;
    }

    private static String uuid(SplittableRandom random) {
        String hex = Long.toHexString(random.nextLong() | Long.MIN_VALUE) + Long.toHexString(random.nextLong()
                | Long.MIN_VALUE);
        return "GPU-" + hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                + hex.substring(16, 20) + "-" + hex.substring(20, 32);
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, String value) {
        out.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private static String ratio(double value) {
        return Double.toString(Math.round(value * 1e6) / 1e6);
    }

    /** vLLM writes Python floats: {@code 8.0}, {@code 0.25}. */
    private static String decimal(double value) {
        return Double.toString(value);
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
