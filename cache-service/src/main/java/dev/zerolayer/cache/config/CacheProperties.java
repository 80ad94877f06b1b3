package dev.zerolayer.cache.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * cache-service settings ({@code zerolayer.cache.*}).
 *
 * @param blockSize          tokens per KV block (as the nodes and the router hash prompts)
 * @param hashSeed           seed of the fast block hash chain (as the nodes and the router)
 * @param expectedBlocks     index capacity reserved at start (it grows beyond)
 * @param publishInterval    how often changed holdings, index blocks, sessions and prewarm commands are published
 *                           (coalesced)
 * @param maxPublishPerTick  holdings or index records one partition publishes per round at most (the rest waits for
 *                           the next round)
 * @param maintenanceInterval how often idle sessions are looked for
 * @param ownerTimeout       a replica silent this long loses its node and block partitions to the others (the
 *                           consumer groups' session timeout)
 * @param reportingWindow    a node owner that goes on from its partition's committed offset reads this much of the
 *                           partition's newest KV events (and those after the offset) for which nodes report them
 *                           (their published holdings are taken as held; the others' as estimates, for the estimates'
 *                           time-to-live)
 * @param downGrace          a node DOWN this long loses its blocks in the index
 * @param hitWindow          window of the hit ratio in {@code /v1/cache/stats}
 * @param approximate        approximate mode for nodes that emit no KV events
 * @param session            session affinity and prewarm
 * @param vllmBridge         vLLM nodes whose ZeroMQ KV events are bridged into {@code cache.kv-events.v1}
 */
@Validated
@ConfigurationProperties("zerolayer.cache")
public record CacheProperties(
        @DefaultValue("16") @Min(1) int blockSize,
        @DefaultValue("0") long hashSeed,
        @DefaultValue("65536") @Min(16) int expectedBlocks,
        @DefaultValue("100ms") Duration publishInterval,
        @DefaultValue("20000") @Min(1) int maxPublishPerTick,
        @DefaultValue("1s") Duration maintenanceInterval,
        @DefaultValue("6s") Duration ownerTimeout,
        @DefaultValue("1h") Duration reportingWindow,
        @DefaultValue("30s") Duration downGrace,
        @DefaultValue("5m") Duration hitWindow,
        @DefaultValue @Valid Approximate approximate,
        @DefaultValue @Valid Session session,
        @DefaultValue @Valid VllmBridge vllmBridge) {

    /**
     * @param ttl                  how long a node is assumed to hold the blocks of a prompt sent to it
     * @param maxBlocksPerDecision leading blocks of a prompt assumed held
     * @param maxBlocksPerNode     blocks assumed per node at most (the oldest go first)
     */
    public record Approximate(
            @DefaultValue("10m") Duration ttl,
            @DefaultValue("512") @Min(1) int maxBlocksPerDecision,
            @DefaultValue("200000") @Min(1) int maxBlocksPerNode) {
    }

    /**
     * @param prefixBlocks     leading blocks kept of each prompt of a session
     * @param recentPrefixes   prompts kept per session
     * @param similarity       share of the shorter prompt's blocks two consecutive prompts must share to be similar
     * @param minSharedBlocks  blocks two consecutive prompts must share at least to be similar
     * @param prewarmStreak    consecutive similar prompts that trigger a prewarm command
     * @param prewarmInterval  at most one prewarm command per session within this time
     * @param prewarmMaxBlocks blocks named in one prewarm command at most
     * @param moveAfter        consecutive requests served elsewhere that move a still-usable sticky node
     * @param stickyMaxLoad    a node at or above this load is overloaded: sessions do not stay stuck to it
     * @param idleTtl          a session unseen this long is forgotten
     * @param maxSessions      sessions kept at most (least recently seen forgotten first)
     * @param maxQueuedPrewarms prewarm commands waiting for the broker at most
     */
    public record Session(
            @DefaultValue("64") @Min(1) int prefixBlocks,
            @DefaultValue("4") @Min(2) int recentPrefixes,
            @DefaultValue("0.5") @DecimalMin("0.0") @DecimalMax("1.0") double similarity,
            @DefaultValue("1") @Min(1) int minSharedBlocks,
            @DefaultValue("3") @Min(2) int prewarmStreak,
            @DefaultValue("60s") Duration prewarmInterval,
            @DefaultValue("64") @Min(1) int prewarmMaxBlocks,
            @DefaultValue("2") @Min(1) int moveAfter,
            @DefaultValue("0.9") @DecimalMin("0.0") double stickyMaxLoad,
            @DefaultValue("1h") Duration idleTtl,
            @DefaultValue("100000") @Min(1) int maxSessions,
            @DefaultValue("10000") @Min(1) int maxQueuedPrewarms) {
    }

    /**
     * @param endpoints vLLM KV-event publishers to subscribe to (none: the bridge does not run)
     * @param maxQueued bridged events waiting for the broker at most
     * @param handshakeTimeout a ZeroMQ connection whose handshake takes longer is dropped and reconnected (works around
     *                         a JeroMQ poller race that can stall a new connection, see {@code VllmKvBridge})
     */
    public record VllmBridge(List<@Valid Endpoint> endpoints, @DefaultValue("100000") @Min(1) int maxQueued,
            @DefaultValue("2s") Duration handshakeTimeout) {

        public VllmBridge {
            endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
        }
    }

    /**
     * @param nodeId  the node id the router and node-health know this vLLM engine by
     * @param address its ZeroMQ PUB endpoint, e.g. {@code tcp://10.0.0.5:5557}
     * @param topic   topic prefix to subscribe to (vLLM's default is empty; llm-d uses {@code kv@})
     */
    public record Endpoint(@NotBlank String nodeId, @NotBlank String address, @DefaultValue("") String topic) {
    }
}
