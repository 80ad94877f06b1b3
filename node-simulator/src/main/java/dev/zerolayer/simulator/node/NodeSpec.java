package dev.zerolayer.simulator.node;

import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfile;
import java.util.Objects;

/**
 * Who one simulated node is: id, tier, cluster, the cluster it stands by for, advertised protocol, model, hardware
 * profile, seed, whether its latency model is on, where it listens (port 0: any free port, kept across restarts), and,
 * for a node that plays a vLLM engine, how it tokenizes and hashes prompts (null: the simulator's own counting and fast
 * hash) and whether its registration declares that (a benchmark's baseline plays vLLM without saying so).
 */
public record NodeSpec(String id, String tier, String cluster, String standbyOf, UpstreamProtocol protocol,
        String model, HardwareProfile profile, long seed, boolean latency, String bindHost, String advertisedHost,
        int port, PrefixCaching prefixCache, boolean declaresPrefixCache) {

    public NodeSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (prefixCache != null && (protocol != UpstreamProtocol.OPENAI || prefixCache.tokenizer() == null
                || !PrefixCaching.VLLM_SHA256_CBOR.equals(prefixCache.hashAlgorithm()))) {
            throw new IllegalArgumentException("node " + id + ": a node playing vLLM speaks openai and names its "
                    + "tokenizer, with sha256_cbor hashes");
        }
    }

    /** What the node's registration says of its prefix caching (null: nothing). */
    public PrefixCaching declaredPrefixCache() {
        return declaresPrefixCache ? prefixCache : null;
    }

    /** A node with the simulator's own counting and hash. */
    public NodeSpec(String id, String tier, String cluster, String standbyOf, UpstreamProtocol protocol, String model,
            HardwareProfile profile, long seed, boolean latency, String bindHost, String advertisedHost, int port) {
        this(id, tier, cluster, standbyOf, protocol, model, profile, seed, latency, bindHost, advertisedHost, port,
                null, false);
    }
}
