package dev.zerolayer.simulator.kv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The prefix cache reuses leading blocks, evicts least recently used ones and reports every change in order. */
class KvBlockCacheTest {

    private final List<KvCacheEvent> events = new ArrayList<>();
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @Test
    void storingAPromptReportsOnlyItsNewBlocksWithTheirParent() {
        KvBlockCache cache = new KvBlockCache("n1", 100, 16, events::add, clock);

        // Given a prompt of three blocks, then one that shares its first two blocks
        assertThat(cache.store(new long[] {1, 2, 3}).added()).isEqualTo(3);
        assertThat(cache.lookup(new long[] {1, 2, 9, 10}, 64)).isEqualTo(2);
        cache.store(new long[] {1, 2, 9, 10});

        // Then the second store reports blocks 9 and 10 with block 2 as parent, and sequences rise by one
        assertThat(events).extracting(KvCacheEvent::type).containsExactly(KvEventType.BLOCK_STORED,
                KvEventType.BLOCK_STORED);
        assertThat(events.get(0).blockHashes()).containsExactly(1L, 2L, 3L);
        assertThat(events.get(0).parentBlockHash()).isNull();
        assertThat(events.get(1).blockHashes()).containsExactly(9L, 10L);
        assertThat(events.get(1).parentBlockHash()).isEqualTo(2L);
        assertThat(events.get(1).sequence()).isEqualTo(events.get(0).sequence() + 1);
        assertThat(events).allSatisfy(event -> {
            assertThat(event.nodeId()).isEqualTo("n1");
            assertThat(event.key()).isEqualTo("n1");
            assertThat(event.blockSize()).isEqualTo(16);
        });
        assertThat(cache.hitTokens()).isEqualTo(32);
        assertThat(cache.queriedTokens()).isEqualTo(64);
    }

    @Test
    void aFullCacheEvictsTheLeastRecentlyUsedBlocks() {
        KvBlockCache cache = new KvBlockCache("n1", 4, 16, events::add, clock);
        cache.store(new long[] {1, 2});
        cache.store(new long[] {3, 4});
        // the first prompt is used again, so blocks 3 and 4 are now the least recently used
        cache.lookup(new long[] {1, 2}, 32);

        KvBlockCache.Stored stored = cache.store(new long[] {5, 6});

        assertThat(stored.evicted()).isEqualTo(2);
        assertThat(events.get(events.size() - 1).type()).isEqualTo(KvEventType.BLOCK_REMOVED);
        assertThat(events.get(events.size() - 1).blockHashes()).containsExactly(3L, 4L);
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.contains(3)).isFalse();
        assertThat(cache.usage()).isEqualTo(1.0);
        assertThat(cache.evictedBlocks()).isEqualTo(2);
    }

    @Test
    void prewarmMarksBlocksCachedAndClearDropsEverything() {
        KvBlockCache cache = new KvBlockCache("n1", 10, 16, events::add, clock);

        cache.prewarm(List.of(11L, 12L));
        assertThat(cache.lookup(new long[] {11, 12, 13}, 48)).isEqualTo(2);

        cache.clear();
        assertThat(cache.size()).isZero();
        assertThat(events).extracting(KvCacheEvent::type).containsExactly(KvEventType.BLOCK_STORED,
                KvEventType.ALL_BLOCKS_CLEARED);
        assertThat(events.get(1).blockHashes()).isEmpty();
    }

    @Test
    void sequencesKeepRisingAcrossARestartedProcess() {
        KvBlockCache before = new KvBlockCache("n1", 10, 16, events::add, clock);
        before.store(new long[] {1});
        before.store(new long[] {2});
        Clock later = Clock.offset(clock, java.time.Duration.ofSeconds(1));

        KvBlockCache after = new KvBlockCache("n1", 10, 16, events::add, later);
        after.clear();

        assertThat(events.get(2).sequence()).isGreaterThan(events.get(1).sequence());
    }
}
