package dev.zerolayer.simulator.fleet;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The simulated fleet ({@code zerolayer.simulator.*}): clusters of nodes with tier, node count, hardware profile,
 * standby relation, protocol(s), ports, seed and latency switch, plus what all nodes share.
 *
 * @param bindAddress          address every node server binds (loopback by default)
 * @param advertisedHost       host put in registrations' upstream URLs (empty: the bind address, 127.0.0.1 for 0.0.0.0)
 * @param basePort             first node port when a cluster sets none; nodes take consecutive ports (0: any free port)
 * @param seed                 fleet seed; a node's seed mixes it (or its cluster's) with the node id
 * @param latency              latency model on (false: every model delay is zero, for benchmarks)
 * @param latencyOverrides     per node id, the latency switch overriding fleet and cluster
 * @param blockSize            tokens per KV block (the same as router and registry use)
 * @param hashSeed             seed of the chained block hashes (the same as router and registry use)
 * @param sampleInterval       how often each node publishes a telemetry sample
 * @param registrationInterval how often each node re-publishes its registration
 * @param maxBodySize          largest request body a node accepts (413 beyond)
 * @param maxWaiting           requests a node queues beyond its capacity before refusing as overloaded
 * @param outputMedianTokens   median of the lognormal output-length draw
 * @param outputSigma          log-standard-deviation of the output-length draw
 * @param defaultMaxTokens     token limit of an OpenAI request that sets none
 * @param maxQueuedKvEvents    KV events held while the broker is unreachable before the oldest are dropped
 * @param clusters             the clusters
 */
@Validated
@ConfigurationProperties("zerolayer.simulator")
public record FleetProperties(
        @DefaultValue("127.0.0.1") @NotBlank String bindAddress,
        @DefaultValue("") String advertisedHost,
        @DefaultValue("18100") @Min(0) @Max(65_535) int basePort,
        @DefaultValue("42") long seed,
        @DefaultValue("true") boolean latency,
        Map<String, Boolean> latencyOverrides,
        @DefaultValue("16") @Min(1) int blockSize,
        @DefaultValue("0") long hashSeed,
        @DefaultValue("100ms") Duration sampleInterval,
        @DefaultValue("10s") Duration registrationInterval,
        @DefaultValue("10MB") DataSize maxBodySize,
        @DefaultValue("4096") @Min(0) int maxWaiting,
        @DefaultValue("200") @Min(1) int outputMedianTokens,
        @DefaultValue("0.86") @DecimalMin("0.0") double outputSigma,
        @DefaultValue("4096") @Min(1) int defaultMaxTokens,
        @DefaultValue("100000") @Min(1) int maxQueuedKvEvents,
        @Valid @NotEmpty List<Cluster> clusters) {

    public FleetProperties {
        latencyOverrides = latencyOverrides == null ? Map.of() : Map.copyOf(latencyOverrides);
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }

    /**
     * One cluster of identical nodes, named {@code <name>-<index>}.
     *
     * @param name      cluster name (as in the fallback policy)
     * @param tier      tier it serves (haiku, sonnet, opus)
     * @param nodes     how many nodes
     * @param profile   hardware profile name (A100-80Gx8, A100-40Gx4, L4x2)
     * @param standbyOf the cluster this one stands by for, if any
     * @param protocol  protocol the nodes advertise (anthropic or openai)
     * @param protocols per-node protocols by index, overriding {@code protocol} for the first nodes
     * @param basePort  first port of this cluster's nodes (0: continue the fleet's sequence)
     * @param seed      seed of this cluster (default: the fleet's)
     * @param latency   latency switch of this cluster (default: the fleet's)
     * @param model     model name the nodes register (default: the profile's reference model)
     * @param capacity  concurrent requests per node (0: the profile's)
     * @param kvBlocks  KV-cache capacity per node in blocks (0: the profile's)
     * @param tokenizer a Hugging Face model directory or URL: the cluster's openai-protocol nodes play vLLM serving
     *                  that model, tokenizing with its tokenizer and chat template and hashing blocks with
     *                  sha256_cbor, and declare it in their registrations (empty: the simulator's own counting and
     *                  fast hash)
     * @param prefixHashSeed the {@code PYTHONHASHSEED} of those nodes' block hashes
     * @param declarePrefixCache whether those nodes' registrations declare it (false: a baseline in which the router
     *                  cannot know how they hash)
     */
    public record Cluster(
            @NotBlank String name,
            @NotBlank String tier,
            @DefaultValue("1") @Min(1) @Max(64) int nodes,
            @NotBlank String profile,
            String standbyOf,
            @DefaultValue("anthropic") String protocol,
            List<String> protocols,
            @DefaultValue("0") @Min(0) @Max(65_535) int basePort,
            Long seed,
            Boolean latency,
            String model,
            @DefaultValue("0") @Min(0) int capacity,
            @DefaultValue("0") @Min(0) long kvBlocks,
            String tokenizer,
            @DefaultValue("0") String prefixHashSeed,
            @DefaultValue("true") boolean declarePrefixCache) {

        public Cluster {
            protocols = protocols == null ? List.of() : List.copyOf(protocols);
        }
    }
}
