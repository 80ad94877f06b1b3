package dev.zerolayer.routing.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.routing.stats.TierTally.TierStats;
import org.junit.jupiter.api.Test;

/** Per-tier decision and fallback counts, the no-tier bucket and totals. */
class TierTallyTest {

    @Test
    void countsPerTierWithRatesAndTotals() {
        TierTally tally = new TierTally();
        tally.record("haiku", false);
        tally.record("haiku", true);
        tally.record("opus", false);
        tally.record(null, false);

        assertThat(tally.tier("haiku")).isEqualTo(new TierStats(2, 1, 0.5));
        assertThat(tally.tier(TierTally.NO_TIER)).isEqualTo(TierStats.of(1, 0));
        assertThat(tally.tier("sonnet")).isEqualTo(TierStats.of(0, 0));
        assertThat(tally.byTier()).containsOnlyKeys("haiku", "none", "opus");
        assertThat(tally.total()).isEqualTo(TierStats.of(4, 1));
    }
}
