package dev.zerolayer.cache.blocks;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.platform.events.EventReader;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The KV blocks each node holds, from its events on {@code cache.kv-events.v1}: BLOCK_STORED adds, BLOCK_REMOVED
 * removes, ALL_BLOCKS_CLEARED empties; an event whose sequence is not above the node's last applied one is a duplicate
 * and is dropped.
 */
public class NodeBlocks implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final Map<String, NodeState> nodes = new ConcurrentHashMap<>();
    private final LongAdder duplicates = new LongAdder();

    public NodeBlocks(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void accept(Message<byte[]> message) {
        KvCacheEvent event = reader.read(message, KvCacheEvent.class);
        if (!nodes.computeIfAbsent(event.nodeId(), node -> new NodeState()).apply(event)) {
            duplicates.increment();
        }
    }

    /** The block hashes a node holds now (empty for a node never heard of). */
    public Set<Long> blocks(String nodeId) {
        NodeState state = nodes.get(nodeId);
        return state == null ? Set.of() : state.blocks();
    }

    /** Every node heard of, by id: how many blocks it holds and the last sequence applied. */
    public SortedMap<String, NodeSummary> summary() {
        SortedMap<String, NodeSummary> summary = new TreeMap<>();
        nodes.forEach((node, state) -> summary.put(node, state.summary()));
        return summary;
    }

    /** Blocks held over all nodes (a block held by two nodes counts twice). */
    public long totalBlocks() {
        return summary().values().stream().mapToLong(NodeSummary::blocks).sum();
    }

    /** Events dropped as duplicates since start. */
    public long duplicatesDropped() {
        return duplicates.sum();
    }

    /** How many blocks a node holds and the sequence of its last applied event. */
    public record NodeSummary(int blocks, long lastSequence) {
    }

    private static final class NodeState {
        private final Set<Long> blocks = new HashSet<>();
        private long lastSequence = -1;

        /** Applies the event unless it is a duplicate; says whether it was applied. */
        synchronized boolean apply(KvCacheEvent event) {
            if (event.sequence() <= lastSequence) {
                return false;
            }
            lastSequence = event.sequence();
            switch (event.type()) {
                case BLOCK_STORED -> blocks.addAll(event.blockHashes());
                case BLOCK_REMOVED -> event.blockHashes().forEach(blocks::remove);
                case ALL_BLOCKS_CLEARED -> blocks.clear();
            }
            return true;
        }

        synchronized Set<Long> blocks() {
            return Set.copyOf(blocks);
        }

        synchronized NodeSummary summary() {
            return new NodeSummary(blocks.size(), lastSequence);
        }
    }
}
