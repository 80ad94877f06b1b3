package dev.zerolayer.platform.replica;

import dev.zerolayer.contracts.event.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;

/**
 * A key (a node id, a block hash) belongs to the replica assigned the partition of a consumer group's topic that the key
 * is keyed to (Kafka's keyed partitioning: murmur2 of the key's UTF-8 bytes, modulo the partition count); this
 * replica's records carry the group generation of the assignment under which it owns them.
 */
public final class PartitionOwnership {

    private final String replica;
    private volatile Assignment current = new Assignment(Set.of(), 0, 0);

    public PartitionOwnership(String replica) {
        this.replica = replica;
    }

    /** The partition Kafka's default partitioner gives a record keyed by {@code key}. */
    public static int partitionOf(String key, int partitionCount) {
        if (partitionCount <= 0) {
            throw new IllegalArgumentException("partition count must be positive");
        }
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitionCount;
    }

    /** Whether the key's partition is assigned to this replica now. */
    public boolean owns(String key) {
        Assignment assignment = current;
        return assignment.partitionCount() > 0
                && assignment.partitions().contains(partitionOf(key, assignment.partitionCount()));
    }

    /** This replica under the generation of its current assignment. */
    public Writer writer() {
        return new Writer(replica, current.generation());
    }

    public Assignment current() {
        return current;
    }

    /**
     * Takes the replica's whole assignment after a rebalance (partitions lost without a revocation included: they are
     * simply absent); returns what changed.
     */
    public synchronized Change assign(Set<Integer> partitions, int partitionCount, long generation) {
        Assignment before = current;
        Set<Integer> gained = new HashSet<>(partitions);
        Set<Integer> dropped = new HashSet<>(before.partitions());
        if (before.partitionCount() == partitionCount) {
            gained.removeAll(before.partitions());
            dropped.removeAll(partitions);
        }
        current = new Assignment(Set.copyOf(partitions), partitionCount, Math.max(generation, 0));
        return new Change(Set.copyOf(gained), Set.copyOf(dropped));
    }

    /** Gives partitions up (a revocation, before another replica may be assigned them); returns what changed. */
    public synchronized Change revoke(Set<Integer> partitions) {
        Assignment before = current;
        Set<Integer> kept = new HashSet<>(before.partitions());
        kept.removeAll(partitions);
        Set<Integer> dropped = new HashSet<>(before.partitions());
        dropped.retainAll(partitions);
        current = new Assignment(Set.copyOf(kept), before.partitionCount(), before.generation());
        return new Change(Set.of(), Set.copyOf(dropped));
    }

    /**
     * The partitions of the group's topic assigned to this replica, the topic's partition count and the group
     * generation (0 before the first assignment).
     */
    public record Assignment(Set<Integer> partitions, int partitionCount, long generation) {
    }

    /** Partitions gained and dropped by one change of assignment (a changed partition count drops and gains all). */
    public record Change(Set<Integer> gained, Set<Integer> dropped) {

        public boolean isEmpty() {
            return gained.isEmpty() && dropped.isEmpty();
        }
    }
}
