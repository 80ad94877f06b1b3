package dev.zerolayer.cache.index;

import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.platform.replica.PartitionOwnership;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A block owner's fold of {@code cache.kv-holdings.v1} into block → holders: a block's holders are the union of its
 * records, one per KV-event partition, whose nodes are disjoint (a node's events are keyed to one partition), so a
 * record replaces exactly the holders of its partition and a tombstone removes them. The index marks what changed,
 * for the publication of {@code cache.kv-index.v1}.
 */
public final class HoldingsFold {

    private final BlockIndex index;
    private final int eventsPartitions;

    /**
     * @param index            the blocks of the holdings partitions this replica owns (it marks their changes)
     * @param eventsPartitions how many partitions {@code cache.kv-events.v1} has (a node's partition among them)
     */
    public HoldingsFold(BlockIndex index, int eventsPartitions) {
        if (eventsPartitions <= 0) {
            throw new IllegalArgumentException("the events topic has at least one partition");
        }
        this.index = index;
        this.eventsPartitions = eventsPartitions;
    }

    /** Applies one record of the holdings topic: {@code entry} null for a tombstone of {@code key}. */
    public void apply(String key, KvHoldingEntry entry) {
        long block = KvHoldingEntry.blockOf(key);
        int partition = KvHoldingEntry.eventsPartitionOf(key);
        List<String> now = entry == null ? List.of() : entry.nodes();
        synchronized (index) {
            Set<String> before = new HashSet<>();
            for (String node : index.holders(block)) {
                if (PartitionOwnership.partitionOf(node, eventsPartitions) == partition) {
                    before.add(node);
                }
            }
            for (String node : before) {
                if (!now.contains(node)) {
                    index.remove(block, node);
                }
            }
            for (String node : now) {
                if (!before.contains(node) && PartitionOwnership.partitionOf(node, eventsPartitions) == partition) {
                    index.add(block, node);
                }
            }
        }
    }
}
