package dev.zerolayer.cache.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.platform.replica.PartitionOwnership;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A block's holders are the union of its holdings records, one per KV-event partition: a record replaces only its own
 * partition's nodes, a tombstone removes them, and the index marks exactly the blocks whose holders changed.
 */
class HoldingsFoldTest {

    private static final int EVENTS_PARTITIONS = 6;
    private static final Instant AT = Instant.parse("2026-12-05T03:00:00Z");

    private final BlockIndex index = new BlockIndex(16);
    private final HoldingsFold fold = new HoldingsFold(index, EVENTS_PARTITIONS);

    /** {@code count} node ids keyed to events partition {@code partition}. */
    private static List<String> nodesOf(int partition, int count) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; nodes.size() < count; i++) {
            String node = "node-" + i;
            if (PartitionOwnership.partitionOf(node, EVENTS_PARTITIONS) == partition) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    private static KvHoldingEntry holding(long block, int partition, List<String> nodes) {
        return new KvHoldingEntry("evt-" + block + "-" + partition, AT, KvHoldingEntry.SCHEMA_VERSION, block, partition,
                nodes, new Writer("cache-0", 4));
    }

    private void apply(KvHoldingEntry entry) {
        fold.apply(entry.key(), entry);
    }

    @Test
    void aBlocksHoldersAreTheUnionOfItsPartitionsRecordsEachReplacingOnlyItsOwn() {
        List<String> zero = nodesOf(0, 3);
        List<String> four = nodesOf(4, 2);
        // Given a block held by two nodes of partition 0 and two of partition 4
        apply(holding(42L, 0, zero.subList(0, 2)));
        apply(holding(42L, 4, four));
        assertThat(index.holders(42L)).containsExactlyInAnyOrderElementsOf(
                List.of(zero.get(0), zero.get(1), four.get(0), four.get(1)));

        // When partition 0's record names a different pair
        apply(holding(42L, 0, List.of(zero.get(1), zero.get(2))));

        // Then only partition 0's holders changed
        assertThat(index.holders(42L)).containsExactlyInAnyOrderElementsOf(
                List.of(zero.get(1), zero.get(2), four.get(0), four.get(1)));

        // and partition 4's tombstone removes its nodes only; the last tombstone removes the block
        fold.apply(KvHoldingEntry.key(42L, 4), null);
        assertThat(index.holders(42L)).containsExactlyInAnyOrder(zero.get(1), zero.get(2));
        fold.apply(KvHoldingEntry.key(42L, 0), null);
        assertThat(index.holders(42L)).isEmpty();
        assertThat(index.blocks()).isZero();
    }

    @Test
    void onlyBlocksWhoseHoldersChangedAreDrainedForPublication() {
        List<String> one = nodesOf(1, 1);
        List<String> two = nodesOf(2, 1);
        apply(holding(7L, 1, one));
        apply(holding(8L, 2, two));
        assertThat(index.drainChanges(100, null)).extracting(BlockIndex.Change::blockHash)
                .containsExactlyInAnyOrder(7L, 8L);

        // the same holders again, and a change undone before the drain, publish nothing
        apply(holding(7L, 1, one));
        fold.apply(KvHoldingEntry.key(8L, 2), null);
        apply(holding(8L, 2, two));
        assertThat(index.drainChanges(100, null)).isEmpty();

        // a second partition's node joining block 7 publishes block 7 with both
        apply(holding(7L, 2, two));
        assertThat(index.drainChanges(100, null)).containsExactly(
                new BlockIndex.Change(7L, List.of(one.get(0), two.get(0)).stream().sorted().toList()));
    }

    @Test
    void aNodeNamedByAPartitionItIsNotKeyedToIsIgnored() {
        String ofThree = nodesOf(3, 1).get(0);
        apply(holding(9L, 5, List.of(ofThree)));
        assertThat(index.holders(9L)).isEmpty();
    }

    @Test
    void aKeyThatIsNotBlockSlashPartitionIsRefused() {
        for (String key : List.of("42", "42/", "/3", "x/3", "42/y")) {
            assertThatThrownBy(() -> fold.apply(key, null)).as(key).isInstanceOf(InvalidEventException.class);
        }
        assertThat(KvHoldingEntry.blockOf(KvHoldingEntry.key(-1L, 3))).isEqualTo(-1L);
        assertThat(IntStream.range(0, EVENTS_PARTITIONS).map(p -> KvHoldingEntry.eventsPartitionOf(
                KvHoldingEntry.key(5L, p)))).containsExactly(0, 1, 2, 3, 4, 5);
    }
}
