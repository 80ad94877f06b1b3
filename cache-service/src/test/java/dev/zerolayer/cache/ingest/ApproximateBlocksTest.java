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

    @Test
    void anotherHoldersAssumptionsAreTakenOverUntilTheirOwnExpiryExceptForReportingNodes() {
        // Given assumptions made elsewhere: n1's two blocks, n2's one, and one of n1's already expired
        BlockIndex elsewhereIndex = new BlockIndex();
        ApproximateBlocks elsewhere = new ApproximateBlocks(elsewhereIndex, new NodeModes(), Duration.ofMinutes(10), 3,
                5);
        elsewhere.observe(decision("s", "n1", false, 1L, 2L), clock.instant());
        elsewhere.observe(decision("s", "n2", false, 7L), clock.instant());
        clock.advance(Duration.ofMinutes(6));
        elsewhere.observe(decision("s", "n1", false, 3L), clock.instant());
        modes.markReporting("n2"); // n2 sends KV events here

        // When they are taken over after the first ones expired
        clock.advance(Duration.ofMinutes(5));
        int taken = approximate.adopt(elsewhere.snapshot(), clock.instant());

        // Then only n1's live assumption is taken, into the index, and expires when it would have
        assertThat(taken).isEqualTo(1);
        assertThat(index.holders(3L)).containsExactly("n1");
        assertThat(index.holders(1L)).isEmpty();
        assertThat(index.holders(7L)).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        assertThat(approximate.expire(clock.instant())).isEqualTo(1);
        assertThat(index.blocks()).isZero();
    }
}
