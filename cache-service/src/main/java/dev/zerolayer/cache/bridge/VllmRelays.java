package dev.zerolayer.cache.bridge;

import dev.zerolayer.cache.ingest.Relays;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.PartitionOwnership;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The vLLM nodes' relays go with their node's {@code cache.kv-events.v1} partition: the replica owning partition q
 * relays the configured vLLM nodes whose events q holds, writing them to q under q's writer (so a former owner's relay
 * is fenced with its partition), and stops them when q leaves it.
 */
public final class VllmRelays implements Relays {

    private final List<VllmKvBridge.Endpoint> endpoints;
    private final Clock clock;
    private final int maxQueued;
    private final Duration handshakeTimeout;
    private final MeterRegistry meters;

    public VllmRelays(List<VllmKvBridge.Endpoint> endpoints, Clock clock, int maxQueued, Duration handshakeTimeout,
            MeterRegistry meters) {
        this.endpoints = List.copyOf(endpoints);
        this.clock = clock;
        this.maxQueued = maxQueued;
        this.handshakeTimeout = handshakeTimeout;
        this.meters = meters;
    }

    private List<VllmKvBridge.Endpoint> endpointsOf(int partition, int partitions) {
        return endpoints.stream()
                .filter(e -> PartitionOwnership.partitionOf(e.nodeId(), partitions) == partition).toList();
    }

    @Override
    public Relays.Relay start(int partition, int partitions, TermWriter writer) {
        List<VllmKvBridge.Endpoint> mine = endpointsOf(partition, partitions);
        if (mine.isEmpty()) {
            return Relays.Relay.NONE;
        }
        VllmKvBridge bridge = new VllmKvBridge(mine, events -> writer.write(events.stream()
                .map(event -> TermWriter.record(Topics.CACHE_KV_EVENTS, partition, event.key(), event))
                .toList()) == TermWriter.Outcome.COMMITTED, clock, maxQueued, handshakeTimeout, meters);
        bridge.start();
        List<String> nodes = mine.stream().map(VllmKvBridge.Endpoint::nodeId).toList();
        return new Relays.Relay() {
            @Override
            public List<String> nodes() {
                return nodes;
            }

            @Override
            public void stop() {
                bridge.stop();
            }
        };
    }
}
