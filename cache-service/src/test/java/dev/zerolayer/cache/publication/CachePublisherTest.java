package dev.zerolayer.cache.publication;

import static dev.zerolayer.cache.TestEvents.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.session.SessionRules;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A round publishes each changed block once (entry or tombstone), bounded per round, then sessions and prewarm
 * commands; what the broker refused is sent in a later round.
 */
class CachePublisherTest {

    /** Records what was sent, by topic; refuses every round while {@code down}. */
    static final class RecordingOutbox implements Outbox {
        final List<Map.Entry<String, Object>> sent = new ArrayList<>();
        final List<Integer> rounds = new ArrayList<>();
        boolean down;

        @Override
        public boolean send(List<Outgoing> round) {
            if (down) {
                return false;
            }
            round.forEach(out -> sent.add(Map.entry(out.topic(),
                    out.event() == null ? "tombstone:" + out.key() : (Object) out.event())));
            rounds.add(round.size());
            return true;
        }
    }

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final BlockIndex index = new BlockIndex();
    private final SessionTracker sessions = new SessionTracker(SessionRules.defaults(), node -> true);
    private final RecordingOutbox outbox = new RecordingOutbox();
    private final CachePublisher publisher = new CachePublisher(index, sessions, outbox, clock, Duration.ofMillis(100),
            2, 10, new SimpleMeterRegistry());

    @Test
    void publishesChangedBlocksOnceBoundedPerRoundAndTombstonesWhatNobodyHolds() {
        index.add(1L, "a");
        index.add(1L, "b");
        index.add(-5L, "a"); // an unsigned 64-bit hash above 2^63
        index.add(3L, "a");
        index.remove(3L, "a"); // came and went within the round: nothing to say

        // at most 2 changed blocks are looked at per round; the one that came and went is not sent
        assertThat(publisher.tick() + publisher.tick()).isEqualTo(2);
        assertThat(publisher.tick()).isZero();
        assertThat(outbox.sent).extracting(Map.Entry::getValue).allSatisfy(value -> assertThat(value)
                .isInstanceOf(KvIndexEntry.class));
        assertThat(outbox.sent).extracting(e -> ((KvIndexEntry) e.getValue()).key())
                .containsExactlyInAnyOrder("1", "18446744073709551611");
        assertThat(outbox.sent).extracting(e -> ((KvIndexEntry) e.getValue()).nodes())
                .contains(List.of("a", "b"), List.of("a"));

        outbox.sent.clear();
        index.clearNode("a");
        index.add(7L, "c");
        index.add(8L, "c");
        assertThat(publisher.tick()).isEqualTo(2); // limit 2 per round
        assertThat(publisher.tick()).isEqualTo(2);
        assertThat(outbox.sent).extracting(Map.Entry::getValue).contains("tombstone:18446744073709551611")
                .hasSize(4);
        assertThat(outbox.sent).filteredOn(e -> e.getValue() instanceof KvIndexEntry entry && entry.blockHash() == 1L)
                .singleElement().satisfies(e -> assertThat(((KvIndexEntry) e.getValue()).nodes())
                        .containsExactly("b"));
    }

    @Test
    void whatTheBrokerRefusedGoesOutInALaterRound() {
        index.add(1L, "a");
        sessions.observe(decision("s1", "a", false, 1), clock.instant());
        publisher.prewarm(new PrewarmCommand("e1", clock.instant(), 1, "a", "s1", List.of(1L), "similar_prompts:3"));
        outbox.down = true;
        assertThat(publisher.tick()).isZero();

        outbox.down = false;
        assertThat(publisher.tick()).isEqualTo(3);
        assertThat(outbox.rounds).as("one round, sent as one unit").containsExactly(3);
        assertThat(outbox.sent).extracting(Map.Entry::getKey).containsExactly(Topics.CACHE_KV_INDEX,
                Topics.CACHE_SESSIONS, Topics.CACHE_PREWARM);
        assertThat(outbox.sent.get(1).getValue()).isInstanceOfSatisfying(SessionEntry.class,
                entry -> assertThat(entry.stickyNode()).isEqualTo("a"));
        assertThat(publisher.tick()).isZero();
    }

    @Test
    void nothingGoesOutUntilTheRestoreIsDoneAndThenOnlyItsNetChange() {
        boolean[] restored = {false};
        CachePublisher held = new CachePublisher(index, sessions, outbox, clock, Duration.ofMillis(100), 10, 10,
                () -> restored[0], new SimpleMeterRegistry());
        index.load(1L, List.of()); // read back: a tombstone

        // Given a replay that stores block 1 and later removes it again, while a round comes in between
        index.add(1L, "a");
        index.add(2L, "a");
        assertThat(held.tick()).as("mid-restore round").isZero();
        index.remove(1L, "a");

        // When the restore is done
        restored[0] = true;

        // Then the first round sends the net change only: block 2; block 1 never went out as held
        assertThat(held.tick()).isEqualTo(1);
        assertThat(outbox.sent).extracting(e -> ((KvIndexEntry) e.getValue()).key()).containsExactly("2");
    }

    @Test
    void aFollowerPublishesNothingAndALeaderSendsOnlyWhatTheTopicsLackStampedWithItsTerm() {
        publisher.follow();
        index.add(1L, "n1");
        index.add(2L, "n1");
        sessions.observe(decision("s1", "n1", false, 1L, 2L), clock.instant());
        publisher.prewarm(new PrewarmCommand("p", clock.instant(), 1, "n1", "s1", List.of(1L), "test"));

        assertThat(publisher.tick()).isZero();
        assertThat(outbox.sent).isEmpty();
        assertThat(publisher.writing()).isFalse();

        // the topics hold block 1 as here, nothing of block 2, and block 3 that nobody holds any more
        Writer stamp = new Writer("cache-b", 7);
        assertThat(publisher.lead(stamp, Map.of(1L, List.of("n1"), 3L, List.of("n2")), Map.of(), () -> true))
                .isTrue();
        publisher.tick();
        publisher.tick();

        assertThat(outbox.sent).extracting(Map.Entry::getValue).filteredOn(KvIndexEntry.class::isInstance)
                .extracting(e -> ((KvIndexEntry) e).blockHash(), e -> ((KvIndexEntry) e).writer())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2L, stamp));
        assertThat(outbox.sent).extracting(Map.Entry::getValue).contains("tombstone:3")
                .noneMatch(PrewarmCommand.class::isInstance);
        assertThat(outbox.sent).extracting(Map.Entry::getValue).filteredOn(SessionEntry.class::isInstance)
                .extracting(e -> ((SessionEntry) e).writer()).containsExactly(stamp);

        // a term that ended while reconciling does not write
        publisher.follow();
        assertThat(publisher.lead(stamp, Map.of(), Map.of(), () -> false)).isFalse();
        assertThat(publisher.writing()).isFalse();
    }
}
