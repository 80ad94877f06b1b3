package dev.zerolayer.routing.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrefixOverlapTest {

    @Test
    void countsOnlyUnbrokenLeadingBlocksPerNode() {
        long[] chain = {11, 12, 13, 14};
        Map<Long, List<String>> index = Map.of(
                11L, List.of("a", "b", "c"),
                12L, List.of("a", "b"),
                13L, List.of("a", "c"),   // c holds 13 but not 12: its prefix stops after block 0
                14L, List.of("a"));

        Map<String, Integer> held = PrefixOverlap.leadingBlocks(chain, index::get);

        assertThat(held).containsExactlyInAnyOrderEntriesOf(Map.of("a", 4, "b", 2, "c", 1));
    }

    @Test
    void aMissingFirstBlockMeansNobodyHoldsAnything() {
        Map<String, Integer> held = PrefixOverlap.leadingBlocks(new long[] {1, 2},
                hash -> hash == 2 ? List.of("a") : List.of());
        assertThat(held).isEmpty();
        assertThat(PrefixOverlap.leadingBlocks(new long[0], hash -> List.of("a"))).isEmpty();
    }

    @Test
    void aGapInTheIndexEndsEveryonesPrefix() {
        Map<String, Integer> held = PrefixOverlap.leadingBlocks(new long[] {1, 2, 3},
                hash -> hash == 2 ? null : List.of("a"));
        assertThat(held).containsExactlyEntriesOf(Map.of("a", 1));
    }
}
