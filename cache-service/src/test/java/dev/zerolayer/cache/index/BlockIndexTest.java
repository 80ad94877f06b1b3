package dev.zerolayer.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.cache.index.BlockIndex.Change;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Holders per block (one, two inline; three or more pooled), per-node counts, clearing a node, read-back without
 * publication, leading-prefix overlap, and drains that coalesce bursts and skip blocks that ended where they started.
 */
class BlockIndexTest {

    private final BlockIndex index = new BlockIndex(4);

    @Test
    void tracksHoldersThroughOneTwoAndManyNodes() {
        for (String node : List.of("n3", "n1", "n4", "n2")) {
            assertThat(index.add(7L, node)).isTrue();
        }
        assertThat(index.add(7L, "n1")).as("already held").isFalse();
        assertThat(index.holders(7L)).containsExactly("n1", "n2", "n3", "n4");
        assertThat(index.remove(7L, "n3")).isTrue();
        assertThat(index.remove(7L, "n3")).as("no longer held").isFalse();
        assertThat(index.remove(7L, "never")).isFalse();
        assertThat(index.remove(8L, "n1")).as("unknown block").isFalse();
        assertThat(index.holders(7L)).containsExactly("n1", "n2", "n4");
        index.remove(7L, "n1");
        assertThat(index.holders(7L)).containsExactly("n2", "n4");
        index.remove(7L, "n4");
        assertThat(index.holders(7L)).containsExactly("n2");
        assertThat(index.holds(7L, "n2")).isTrue();
        index.remove(7L, "n2");
        assertThat(index.holders(7L)).isEmpty();
        assertThat(index.blocks()).isZero();
        assertThat(index.pairs()).isZero();
        assertThat(index.blocksPerNode()).isEmpty();
    }

    @Test
    void clearingANodeLeavesTheOthersAndCountsStayExact() {
        for (long block = 1; block <= 1000; block++) {
            index.add(block, "a");
            if (block % 2 == 0) {
                index.add(block, "b");
            }
            if (block % 5 == 0) {
                index.add(block, "c");
                index.add(block, "d");
            }
        }
        assertThat(index.blocksPerNode()).containsExactlyInAnyOrderEntriesOf(
                Map.of("a", 1000, "b", 500, "c", 200, "d", 200));
        assertThat(index.clearNode("a")).isEqualTo(1000);
        assertThat(index.blocks()).isEqualTo(600); // even blocks or multiples of 5
        assertThat(index.holders(10L)).containsExactly("b", "c", "d");
        assertThat(index.holders(5L)).containsExactly("c", "d");
        assertThat(index.holders(3L)).isEmpty();
        assertThat(index.retainNode("b", block -> block <= 100)).isEqualTo(450);
        assertThat(index.blocksOf("b")).isEqualTo(50);
        assertThat(index.pairs()).isEqualTo(50 + 200 + 200);
    }

    @Test
    void drainsEachChangedBlockOnceAndSkipsThoseThatEndedWhereTheyStarted() {
        index.add(1L, "a");
        index.add(2L, "a");
        assertThat(index.drainChanges(100, null)).containsExactlyInAnyOrder(
                new Change(1L, List.of("a")), new Change(2L, List.of("a")));

        // a burst: block 1 gains and loses b (no net change), block 2 is dropped, block 3 comes and goes
        index.add(1L, "b");
        index.remove(1L, "b");
        index.remove(2L, "a");
        index.add(3L, "c");
        index.clearNode("c");
        index.add(4L, "c");
        index.add(4L, "d");
        index.add(4L, "e");
        assertThat(index.drainChanges(100, null)).containsExactlyInAnyOrder(
                new Change(2L, List.of()), new Change(4L, List.of("c", "d", "e")));
        assertThat(index.pendingChanges()).isZero();
    }

    @Test
    void aDrainTakesAtMostItsLimitAndARequeuedChangeComesBack() {
        for (long block = 0; block < 10; block++) {
            index.add(block, "a");
        }
        long[] before = new long[4];
        List<Change> first = index.drainChanges(4, before);
        assertThat(first).hasSize(4);
        assertThat(index.pendingChanges()).isEqualTo(6);
        index.requeue(first.get(0).blockHash(), before[0]);
        assertThat(index.drainChanges(100, null)).hasSize(7).contains(first.get(0));
    }

    @Test
    void readBackDoesNotPublishAndReplacesWhatWasKnown() {
        index.add(1L, "a");
        index.drainChanges(10, null);
        index.load(1L, List.of("b", "c"));
        index.load(2L, List.of("a"));
        index.load(3L, List.of("a"));
        index.load(3L, List.of());
        assertThat(index.pendingChanges()).isZero();
        assertThat(index.holders(1L)).containsExactly("b", "c");
        assertThat(index.holders(2L)).containsExactly("a");
        assertThat(index.holders(3L)).isEmpty();
        assertThat(index.blocksPerNode()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1, "b", 1, "c", 1));
    }

    @Test
    void leadingBlocksCountOnlyAnUnbrokenPrefix() {
        long[] chain = {11, 12, 13, 14};
        index.add(11, "a");
        index.add(12, "a");
        index.add(13, "a");
        index.add(11, "b");
        index.add(13, "b"); // a gap at 12: b holds one leading block
        index.add(12, "c"); // c misses the first block: none
        assertThat(index.leadingBlocks(chain)).containsExactlyInAnyOrderEntriesOf(Map.of("a", 3, "b", 1));
        assertThat(index.leadingBlocks(new long[0])).isEmpty();
    }

    @Test
    void aTakeoverDrainsExactlyWhatThePublishedIndexLacks() {
        index.add(1L, "n1");
        index.add(2L, "n1");
        index.add(2L, "n2");
        for (String node : List.of("n1", "n2", "n3")) {
            index.add(3L, node);
        }
        index.add(4L, "n4");
        assertThat(index.drainChanges(10, null)).as("published before").hasSize(4);

        // the topic: block 1 as here, block 2 with one holder short, block 3 as here (in another order), block 4
        // missing, and block 5 that nobody holds any more
        index.reconcile(Map.of(1L, List.of("n1"), 2L, List.of("n2"), 3L, List.of("n3", "n1", "n2"),
                5L, List.of("n9")));

        assertThat(index.drainChanges(10, null)).containsExactlyInAnyOrder(new Change(2L, List.of("n1", "n2")),
                new Change(4L, List.of("n4")), new Change(5L, List.of()));
    }

    @Test
    void aFourthHolderOfAPooledBlockIsDrainedAndSoIsItsLeaving() {
        for (String node : List.of("n1", "n2", "n3")) {
            index.add(9L, node);
        }
        assertThat(index.drainChanges(10, null)).containsExactly(new Change(9L, List.of("n1", "n2", "n3")));

        index.add(9L, "n4");
        assertThat(index.drainChanges(10, null)).as("the pooled set grew in place")
                .containsExactly(new Change(9L, List.of("n1", "n2", "n3", "n4")));
        index.remove(9L, "n4");
        assertThat(index.drainChanges(10, null)).containsExactly(new Change(9L, List.of("n1", "n2", "n3")));
    }
}
