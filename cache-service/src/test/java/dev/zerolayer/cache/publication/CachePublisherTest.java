package dev.zerolayer.cache.publication;

import static dev.zerolayer.cache.TestEvents.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.cache.session.SessionRules;
import dev.zerolayer.cache.session.SessionTracker;
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
 * A round publishes the changed sessions, then prewarm commands, as one unit; what the broker refused is sent in a
 * later round; a follower sends nothing and takes no prewarm.
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
    private final SessionTracker sessions = new SessionTracker(SessionRules.defaults(), node -> true);
    private final RecordingOutbox outbox = new RecordingOutbox();
    private final CachePublisher publisher = new CachePublisher(sessions, outbox, clock, Duration.ofMillis(100), 10,
            new SimpleMeterRegistry());

    @Test
    void whatTheBrokerRefusedGoesOutInALaterRound() {
        sessions.observe(decision("s1", "a", false, 1), clock.instant());
        publisher.prewarm(new PrewarmCommand("e1", clock.instant(), 1, "a", "s1", List.of(1L), "similar_prompts:3"));
        outbox.down = true;
        assertThat(publisher.tick()).isZero();

        outbox.down = false;
        assertThat(publisher.tick()).isEqualTo(2);
        assertThat(outbox.rounds).as("one round, sent as one unit").containsExactly(2);
        assertThat(outbox.sent).extracting(Map.Entry::getKey).containsExactly(Topics.CACHE_SESSIONS,
                Topics.CACHE_PREWARM);
        assertThat(outbox.sent.get(0).getValue()).isInstanceOfSatisfying(SessionEntry.class,
                entry -> assertThat(entry.stickyNode()).isEqualTo("a"));
        assertThat(publisher.tick()).isZero();
    }

    @Test
    void nothingGoesOutUntilTheRestoreIsDone() {
        boolean[] restored = {false};
        CachePublisher held = new CachePublisher(sessions, outbox, clock, Duration.ofMillis(100), 10,
                () -> restored[0], new SimpleMeterRegistry());
        sessions.observe(decision("s1", "a", false, 1), clock.instant());
        assertThat(held.tick()).as("mid-restore round").isZero();

        restored[0] = true;

        assertThat(held.tick()).isEqualTo(1);
        assertThat(outbox.sent).extracting(Map.Entry::getKey).containsExactly(Topics.CACHE_SESSIONS);
    }

    @Test
    void aFollowerPublishesNothingAndALeaderWritesStampedWithItsTerm() {
        publisher.follow();
        sessions.observe(decision("s1", "n1", false, 1L, 2L), clock.instant());
        publisher.prewarm(new PrewarmCommand("p", clock.instant(), 1, "n1", "s1", List.of(1L), "test"));

        assertThat(publisher.tick()).isZero();
        assertThat(outbox.sent).isEmpty();
        assertThat(publisher.writing()).isFalse();

        // the topic lacks the session: the new leader sends it, stamped, and not the prewarm asked while following
        Writer stamp = new Writer("cache-b", 7);
        assertThat(publisher.lead(stamp, Map.of(), () -> true)).isTrue();
        publisher.tick();

        assertThat(outbox.sent).extracting(Map.Entry::getValue).noneMatch(PrewarmCommand.class::isInstance);
        assertThat(outbox.sent).extracting(Map.Entry::getValue).filteredOn(SessionEntry.class::isInstance)
                .extracting(e -> ((SessionEntry) e).writer()).containsExactly(stamp);

        // a term that ended while reconciling does not write
        publisher.follow();
        assertThat(publisher.lead(stamp, Map.of(), () -> false)).isFalse();
        assertThat(publisher.writing()).isFalse();
    }
}
