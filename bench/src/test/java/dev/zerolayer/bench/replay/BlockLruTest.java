package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BlockLruTest {

    @Test
    void cachedPartIsTheLeadingRunOfHeldBlocks() {
        BlockLru lru = new BlockLru(100);
        assertThat(lru.admit(new long[] {1, 2, 3})).isZero();
        assertThat(lru.leadingHits(new long[] {1, 2, 3, 4})).isEqualTo(3);
        assertThat(lru.leadingHits(new long[] {1, 9, 3})).isEqualTo(1);
        assertThat(lru.leadingHits(new long[] {9, 1, 2})).isZero();
        assertThat(lru.admit(new long[] {1, 2, 7})).isEqualTo(2);
        assertThat(lru.size()).isEqualTo(4);
    }

    @Test
    void evictsTheLeastRecentlyUsed() {
        BlockLru lru = new BlockLru(3);
        lru.admit(new long[] {1, 2, 3});
        lru.admit(new long[] {1});
        lru.admit(new long[] {4});
        assertThat(lru.leadingHits(new long[] {1})).isEqualTo(1);
        assertThat(lru.leadingHits(new long[] {2})).isZero();
        assertThat(lru.evictions()).isEqualTo(1);
        assertThat(lru.size()).isEqualTo(3);
        lru.clear();
        assertThat(lru.leadingHits(new long[] {1})).isZero();
    }
}
