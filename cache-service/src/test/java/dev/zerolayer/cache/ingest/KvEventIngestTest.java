package dev.zerolayer.cache.ingest;

import static dev.zerolayer.cache.TestEvents.health;
import static dev.zerolayer.cache.TestEvents.kv;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.nodes.NodeStates;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.telemetry.NodeState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The "Bad input" of issue #7 for KV events, each handled idempotently: events of unknown nodes, out-of-order sequence
 * numbers, duplicate deliveries, removal of unknown blocks, all-cleared mid-stream; and poison is refused untouched.
 */
class KvEventIngestTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final BlockIndex index = new BlockIndex();
    private final NodeModes modes = new NodeModes();
    private final List<String> firstReports = new ArrayList<>();
    private final KvEventIngest ingest = new KvEventIngest(index, modes, firstReports::add, node -> false,
            meters);

    private void accept(long sequence, String node, KvEventType type, Long... hashes) {
        ingest.apply(kv(node, sequence, type, hashes));
    }

    @Test
    void blocksStoredByANodeDownPastTheGracePeriodAreNotAddedButItsRemovalsAndClearsApply() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
        NodeStates states = new NodeStates(0.9);
        KvEventIngest guarded = new KvEventIngest(index, modes, node -> { },
                node -> states.downFor(node, Duration.ofSeconds(30), clock.instant()), meters);
        guarded.apply(kv("n-down", 1, KvEventType.BLOCK_STORED, 1L, 2L));
        states.update(health("n-down", NodeState.DOWN, 0, clock.instant()));

        // within the grace period its stores still count
        clock.advance(Duration.ofSeconds(29));
        guarded.apply(kv("n-down", 2, KvEventType.BLOCK_STORED, 3L));
        assertThat(index.holders(3L)).containsExactly("n-down");

        // past it, they do not (a replay after a restart must not bring its blocks back), removals still apply
        clock.advance(Duration.ofSeconds(1));
        assertThat(guarded.apply(kv("n-down", 3, KvEventType.BLOCK_STORED, 4L))).isTrue();
        guarded.apply(kv("n-down", 4, KvEventType.BLOCK_REMOVED, 1L));
        assertThat(index.holders(4L)).isEmpty();
        assertThat(index.holders(1L)).isEmpty();
        assertThat(meters.counter("zerolayer.cache.kv.down.stores").count()).isEqualTo(1.0);

        // an older record read again (the view replaying the topic after the restore) does not step back
        states.update(health("n-down", NodeState.HEALTHY, 0.1, clock.instant().minusSeconds(60)));
        assertThat(states.downFor("n-down", Duration.ofSeconds(30), clock.instant())).isTrue();

        // once it is back, its stores count again
        states.update(health("n-down", NodeState.HEALTHY, 0.1, clock.instant()));
        guarded.apply(kv("n-down", 5, KvEventType.BLOCK_STORED, 5L));
        assertThat(index.holders(5L)).containsExactly("n-down");
    }

    @Test
    void eventsOfANodeNodeHealthHasNeverNamedAreAcceptedAndTracked() {
        accept(1, "unregistered", KvEventType.BLOCK_STORED, 1L, 2L);

        assertThat(index.holders(1L)).containsExactly("unregistered");
        assertThat(modes.reports("unregistered")).isTrue();
        assertThat(firstReports).containsExactly("unregistered");
        accept(2, "unregistered", KvEventType.BLOCK_STORED, 3L);
        assertThat(firstReports).as("announced once").containsExactly("unregistered");
    }

    @Test
    void anOlderSequenceArrivingLateIsDroppedAndAJumpIsAppliedAndCountedAsAGap() {
        accept(10, "n1", KvEventType.BLOCK_STORED, 1L);
        accept(12, "n1", KvEventType.BLOCK_STORED, 2L); // 11 missing
        accept(11, "n1", KvEventType.BLOCK_REMOVED, 1L); // arrives after 12: stale, must not remove 1

        assertThat(index.holders(1L)).containsExactly("n1");
        assertThat(index.holders(2L)).containsExactly("n1");
        KvEventIngest.Progress progress = ingest.progress().get("n1");
        assertThat(progress).isEqualTo(new KvEventIngest.Progress(12, 2, 1, 1));
        assertThat(meters.counter("zerolayer.cache.kv.sequence.gaps").count()).isEqualTo(1.0);
    }

    @Test
    void aDuplicateDeliveryChangesNothing() {
        accept(1, "n1", KvEventType.BLOCK_STORED, 1L, 2L);
        accept(2, "n1", KvEventType.BLOCK_REMOVED, 2L);
        accept(1, "n1", KvEventType.BLOCK_STORED, 1L, 2L); // redelivered
        accept(2, "n1", KvEventType.BLOCK_REMOVED, 2L); // redelivered

        assertThat(index.holders(2L)).isEmpty();
        assertThat(index.blocksOf("n1")).isEqualTo(1);
        assertThat(ingest.staleDropped()).isEqualTo(2);
        assertThat(meters.counter("zerolayer.cache.kv.events", "outcome", "stale").count()).isEqualTo(2.0);
    }

    @Test
    void removingABlockTheNodeNeverStoredIsCountedAndHarmless() {
        accept(1, "n1", KvEventType.BLOCK_STORED, 1L);
        accept(1, "n2", KvEventType.BLOCK_STORED, 5L);
        accept(2, "n1", KvEventType.BLOCK_REMOVED, 5L, 99L);

        assertThat(index.holders(5L)).containsExactly("n2");
        assertThat(index.holders(1L)).containsExactly("n1");
        assertThat(meters.counter("zerolayer.cache.kv.unknown.removals").count()).isEqualTo(2.0);
    }

    @Test
    void allClearedMidStreamDropsOnlyThatNodesBlocksAndLaterStoresApply() {
        accept(1, "n1", KvEventType.BLOCK_STORED, 1L, 2L, 3L);
        accept(1, "n2", KvEventType.BLOCK_STORED, 2L);
        accept(2, "n1", KvEventType.ALL_BLOCKS_CLEARED);
        accept(3, "n1", KvEventType.ALL_BLOCKS_CLEARED); // cleared twice: still empty
        accept(4, "n1", KvEventType.BLOCK_STORED, 7L);

        assertThat(index.blocksPerNode()).containsEntry("n1", 1).containsEntry("n2", 1);
        assertThat(index.holders(2L)).containsExactly("n2");
        assertThat(index.holders(7L)).containsExactly("n1");
        assertThat(index.holders(1L)).isEmpty();
    }
}
