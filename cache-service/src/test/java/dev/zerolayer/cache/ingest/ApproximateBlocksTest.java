package dev.zerolayer.cache.ingest;

import static dev.zerolayer.cache.TestEvents.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.contracts.router.DecisionStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Nodes without KV events are assumed to hold what was sent to them for the time-to-live (refreshed by each new send),
 * at most a bounded number of blocks; reporting nodes are never estimated, and a node that starts reporting loses its
 * estimates.
 */
class ApproximateBlocksTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final BlockIndex index = new BlockIndex();
    private final NodeModes modes = new NodeModes();
    private final ApproximateBlocks approximate = new ApproximateBlocks(index, modes, Duration.ofMinutes(10), 3, 5);

    @Test
    void assumesTheLeadingBlocksSentToANodeUntilTheTimeToLiveRunsOut() {
        approximate.observe(decision("s", "quiet", false, 1, 2, 3, 4), clock.instant());
        assertThat(index.holders(1L)).containsExactly("quiet");
        assertThat(index.holders(3L)).containsExactly("quiet");
        assertThat(index.holders(4L)).as("beyond the per-decision limit").isEmpty();

        clock.advance(Duration.ofMinutes(6));
        approximate.observe(decision("s", "quiet", false, 1, 9), clock.instant()); // refreshes 1
        clock.advance(Duration.ofMinutes(5)); // 11 min after the first, 5 after the refresh
        assertThat(approximate.expire(clock.instant())).isEqualTo(2);
        assertThat(index.holders(1L)).containsExactly("quiet");
        assertThat(index.holders(9L)).containsExactly("quiet");
        assertThat(index.holders(2L)).isEmpty();
        assertThat(index.holders(3L)).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        approximate.expire(clock.instant());
        assertThat(index.blocks()).isZero();
        assertThat(approximate.size()).isZero();
    }

    @Test
    void boundsTheBlocksAssumedPerNodeDroppingTheOldest() {
        approximate.observe(decision("s", "quiet", false, 1, 2, 3), clock.instant());
        approximate.observe(decision("s", "quiet", false, 4, 5, 6), clock.instant());
        assertThat(index.blocksOf("quiet")).isEqualTo(5);
        assertThat(index.holders(1L)).isEmpty();
        assertThat(approximate.assumed(6L, "quiet")).isTrue();
    }

    @Test
    void ignoresReportingNodesFailedDecisionsAndDecisionsWithoutBlocks() {
        modes.markReporting("loud");
        approximate.observe(decision("s", "loud", false, 1), clock.instant());
        approximate.observe(decision("s", "quiet", false, DecisionStatus.OVERLOADED, 2), clock.instant());
        approximate.observe(decision("s", "quiet", false), clock.instant());
        approximate.observe(decision("s", null, false, DecisionStatus.REJECTED, 3), clock.instant());
        assertThat(index.blocks()).isZero();
    }

    @Test
    void aNodeThatStartsReportingLosesItsEstimates() {
        approximate.observe(decision("s", "quiet", false, 1, 2), clock.instant());
        index.add(2L, "other");
        assertThat(approximate.forget("quiet")).isEqualTo(2);
        assertThat(index.holders(1L)).isEmpty();
        assertThat(index.holders(2L)).containsExactly("other");
    }
}
