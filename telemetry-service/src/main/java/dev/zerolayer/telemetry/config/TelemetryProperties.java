package dev.zerolayer.telemetry.config;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotEmpty;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * telemetry-service settings ({@code zerolayer.telemetry.*}).
 *
 * @param tick                   how often staleness, probes and heartbeats are checked
 * @param heartbeat              a node's health record is republished at least this often (and at once on change)
 * @param loadChange             a node's record also goes out before its heartbeat once its load (requests running
 *                               over capacity) moved by this much (0 turns it off)
 * @param loadChangeInterval     the least time between two records of one node sent for their load alone
 * @param maxSampleSkew          samples stamped further than this from now are rejected
 * @param allowedUpstreamSchemes schemes a registered upstream URL may use
 * @param allowedUpstreamHosts   hosts a registered upstream URL may name ({@code *} allows any)
 * @param nodes                  statically registered nodes (a real fleet that cannot publish), with scrape endpoints
 * @param scrapeInterval         how often inventory nodes' {@code /metrics} endpoints are scraped
 * @param probeTimeout           how long a warm-up probe may take
 * @param backlogPause           how long a replica behind its sample stream (catching up after a start or a handover)
 *                               waits for a partition's next record before it takes the pause for the nodes' silence
 */
@Validated
@ConfigurationProperties("zerolayer.telemetry")
public record TelemetryProperties(
        @DefaultValue("100ms") Duration tick,
        @DefaultValue("2s") Duration heartbeat,
        @DefaultValue("0.2") @DecimalMin("0.0") @DecimalMax("1.0") double loadChange,
        @DefaultValue("500ms") Duration loadChangeInterval,
        @DefaultValue("60s") Duration maxSampleSkew,
        @DefaultValue({"http", "https"}) @NotEmpty List<String> allowedUpstreamSchemes,
        @DefaultValue({"127.0.0.1", "localhost"}) @NotEmpty List<String> allowedUpstreamHosts,
        List<InventoryNode> nodes,
        @DefaultValue("1s") Duration scrapeInterval,
        @DefaultValue("2s") Duration probeTimeout,
        @DefaultValue("5s") Duration backlogPause) {

    public TelemetryProperties {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /**
     * A node of the static inventory: its registration fields and where to scrape it.
     *
     * @param dcgmUrl                      dcgm-exporter {@code /metrics} URL, or null
     * @param vllmUrl                      vLLM {@code /metrics} URL, or null
     * @param gpuLabels                    label matchers selecting this node's GPUs in the dcgm scrape
     * @param engineLabels                 label matchers selecting this node's engine in the vLLM scrape
     * @param nvlinkCapacityBytesPerSecond NVLink bytes per second at saturation (TX + RX, all GPUs of the node)
     * @param prefixCache                  how the node's engine tokenizes and hashes prompt blocks (its model's
     *                                     tokenizer files, block size, {@code sha256_cbor} and its
     *                                     {@code PYTHONHASHSEED}), so the router computes the same block hashes;
     *                                     absent: not declared
     */
    public record InventoryNode(
            String nodeId,
            String tier,
            String cluster,
            String standbyOf,
            String upstreamBaseUrl,
            @DefaultValue("openai") String protocol,
            String model,
            @DefaultValue("16") int capacity,
            String hardwareProfile,
            String dcgmUrl,
            String vllmUrl,
            java.util.Map<String, String> gpuLabels,
            java.util.Map<String, String> engineLabels,
            @DefaultValue("6.0e11") double nvlinkCapacityBytesPerSecond,
            PrefixCache prefixCache) {
    }

    /**
     * A node's prefix caching as its engine runs it.
     *
     * @param tokenizer     the served model's Hugging Face files: a directory path or a URL
     * @param blockSize     tokens per KV block ({@code --block-size})
     * @param hashAlgorithm {@code sha256_cbor} ({@code --prefix-caching-hash-algo})
     * @param hashSeed      the engine's {@code PYTHONHASHSEED}
     */
    public record PrefixCache(String tokenizer, @DefaultValue("16") int blockSize,
            @DefaultValue("sha256_cbor") String hashAlgorithm, String hashSeed) {
    }
}
