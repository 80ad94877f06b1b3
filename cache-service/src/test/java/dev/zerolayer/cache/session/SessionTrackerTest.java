package dev.zerolayer.cache.session;

import static dev.zerolayer.cache.TestEvents.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.router.DecisionStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Sticky node, its yielding and moving, recent prefixes, the similar-prompt streak and the prewarm it triggers (rate
 * limited), idle expiry with tombstones, and the read-back after a restart.
 */
class SessionTrackerTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final Set<String> unusable = new HashSet<>();
    private final SessionRules rules = new SessionRules(8, 3, 0.5, 2, 3, Duration.ofSeconds(60), 4, 2,
            Duration.ofMinutes(30), 4);
    private final SessionTracker sessions = new SessionTracker(rules, node -> !unusable.contains(node));

    private Optional<PrewarmCommand> send(String session, String node, long... blocks) {
        return sessions.observe(decision(session, node, false, blocks), clock.instant());
    }

    private SessionEntry entry(String session) {
        return sessions.get(session, clock.instant()).orElseThrow();
    }

    @Test
    void threeConsecutiveSimilarPromptsPrewarmTheirSharedBlocksOnTheStickyNodeOncePerInterval() {
        assertThat(send("s1", "a", 1, 2, 3, 4, 5, 6)).isEmpty();
        assertThat(send("s1", "a", 1, 2, 3, 4, 5, 6, 7, 8)).isEmpty();
        Optional<PrewarmCommand> third = send("s1", "a", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);

        assertThat(third).hasValueSatisfying(command -> {
            assertThat(command.nodeId()).isEqualTo("a");
            assertThat(command.sessionHash()).isEqualTo("s1");
            assertThat(command.blockHashes()).containsExactly(1L, 2L, 3L, 4L); // shared by all three, capped at 4
            assertThat(command.reason()).isEqualTo("similar_prompts:3");
        });
        assertThat(entry("s1").similarStreak()).isEqualTo(3);
        assertThat(entry("s1").recentPrefixes()).hasSize(3).last().asList().hasSize(8); // 8 leading blocks kept

        // the fourth similar prompt within the interval sends nothing; after the interval it does
        clock.advance(Duration.ofSeconds(30));
        assertThat(send("s1", "a", 1, 2, 3, 4, 5)).isEmpty();
        clock.advance(Duration.ofSeconds(31));
        assertThat(send("s1", "a", 1, 2, 3, 4, 5)).isPresent();
    }

    @Test
    void aDissimilarPromptRestartsTheStreak() {
        send("s1", "a", 1, 2, 3, 4);
        send("s1", "a", 1, 2, 3, 4, 5);
        assertThat(send("s1", "a", 1, 9, 9, 9)).as("shares 1 block, needs 2").isEmpty();
        assertThat(entry("s1").similarStreak()).isEqualTo(1);
        send("s1", "a", 1, 9, 9, 9, 8);
        assertThat(send("s1", "a", 1, 9, 9, 9, 8, 7)).hasValueSatisfying(
                command -> assertThat(command.blockHashes()).containsExactly(1L, 9L, 9L, 9L));
        // prompts without blocks (a router that sends none) are never similar
        assertThat(send("s2", "a")).isEmpty();
        assertThat(send("s2", "a")).isEmpty();
        assertThat(send("s2", "a")).isEmpty();
    }

    @Test
    void theStickyNodeYieldsAtOnceWhenItCannotServeAndMovesAfterRepeatedRequestsElsewhere() {
        send("s1", "a", 1);
        assertThat(entry("s1").stickyNode()).isEqualTo("a");

        // one request served elsewhere while a is fine: a stays; the second in a row moves it
        send("s1", "b", 1);
        assertThat(entry("s1").stickyNode()).isEqualTo("a");
        send("s1", "a", 1);
        send("s1", "b", 1);
        assertThat(entry("s1").stickyNode()).as("counter reset by the request back on a").isEqualTo("a");
        send("s1", "b", 1);
        assertThat(entry("s1").stickyNode()).isEqualTo("b");

        // b degrades or is overloaded: the next request elsewhere moves the session at once
        unusable.add("b");
        send("s1", "c", 1);
        assertThat(entry("s1").stickyNode()).isEqualTo("c");
    }

    @Test
    void onlyDecisionsThatReachedANodeCount() {
        sessions.observe(decision("s1", null, false, DecisionStatus.OVERLOADED, 1), clock.instant());
        sessions.observe(decision("s1", "a", false, DecisionStatus.EXPLAINED, 1), clock.instant());
        sessions.observe(decision(null, "a", false, 1), clock.instant());
        assertThat(sessions.size()).isZero();
        assertThat(sessions.drain(clock.instant()).entries()).isEmpty();
    }

    @Test
    void drainsChangedSessionsOnceAndTombstonesIdleAndSurplusOnes() {
        send("s1", "a", 1);
        send("s1", "a", 1, 2);
        send("s2", "b", 5);
        SessionTracker.Drained first = sessions.drain(clock.instant());
        assertThat(first.entries()).extracting(SessionEntry::sessionHash).containsExactly("s1", "s2");
        assertThat(sessions.drain(clock.instant()).entries()).isEmpty();

        clock.advance(Duration.ofMinutes(20));
        send("s3", "a", 1);
        send("s4", "a", 1);
        send("s5", "a", 1); // over the limit of 4: the least recently seen (s1) goes
        clock.advance(Duration.ofMinutes(11)); // s2 idle 31 min
        assertThat(sessions.expireIdle(clock.instant())).isEqualTo(1);
        SessionTracker.Drained second = sessions.drain(clock.instant());
        assertThat(second.tombstones()).containsExactlyInAnyOrder("s1", "s2");
        assertThat(second.entries()).extracting(SessionEntry::sessionHash).containsExactly("s3", "s4", "s5");

        sessions.requeue(List.of("s3", "gone"), List.of("s1"));
        SessionTracker.Drained again = sessions.drain(clock.instant());
        assertThat(again.entries()).extracting(SessionEntry::sessionHash).containsExactly("s3");
        assertThat(again.tombstones()).containsExactly("s1");
    }

    @Test
    void aRestoredSessionContinuesItsStreakWithoutAnImmediateSecondPrewarm() {
        send("s1", "a", 1, 2, 3);
        send("s1", "a", 1, 2, 3, 4);
        assertThat(send("s1", "a", 1, 2, 3, 4, 5)).isPresent();
        SessionEntry published = entry("s1");

        SessionTracker restarted = new SessionTracker(rules, node -> true);
        restarted.restore(published);
        assertThat(restarted.get("s1", clock.instant())).hasValueSatisfying(e -> {
            assertThat(e.stickyNode()).isEqualTo("a");
            assertThat(e.similarStreak()).isEqualTo(3);
            assertThat(e.recentPrefixes()).isEqualTo(published.recentPrefixes());
        });
        assertThat(restarted.observe(decision("s1", "a", false, 1, 2, 3, 4, 5, 6), clock.instant())).isEmpty();
        clock.advance(Duration.ofSeconds(61));
        assertThat(restarted.observe(decision("s1", "a", false, 1, 2, 3, 4, 5, 6), clock.instant())).isPresent();
        restarted.drop("s1");
        assertThat(restarted.size()).isZero();
    }

    @Test
    void aTakeoverRepublishesOnlySessionsThatDifferFromTheTopicAndAdoptsThoseItMissed() {
        send("s1", "a", 1, 2);
        send("s2", "b", 5);
        SessionEntry s1 = entry("s1");
        SessionEntry s3 = new SessionEntry("e", clock.instant(), 1, "s3", "c", List.of(List.of(9L)), 1);
        sessions.discardChanges(hash -> true);
        assertThat(sessions.drain(clock.instant()).entries()).as("a follower forgets its changes").isEmpty();

        // the topic holds s1 as it is here, an older s2 and s3 this replica never saw
        SessionEntry oldS2 = new SessionEntry("e", clock.instant(), 1, "s2", "a", List.of(List.of(5L)), 1);
        sessions.reconcile(Map.of("s1", s1, "s2", oldS2, "s3", s3), clock.instant());

        SessionTracker.Drained drained = sessions.drain(clock.instant());
        assertThat(drained.entries()).extracting(SessionEntry::sessionHash).containsExactly("s2");
        assertThat(drained.tombstones()).isEmpty();
        assertThat(sessions.get("s3", clock.instant())).hasValueSatisfying(e -> assertThat(e.stickyNode())
                .isEqualTo("c"));
    }

    @Test
    void oneOwnersPartitionIsDrainedReconciledAndDiscardedApartFromTheOthers() {
        java.util.function.Predicate<String> mine = hash -> hash.equals("s1") || hash.equals("s3");
        send("s1", "a", 1, 2);
        send("s2", "b", 5);

        // the owner of s1's partition drains s1 only; s2 waits for its own owner
        assertThat(sessions.drain(clock.instant(), mine).entries()).extracting(SessionEntry::sessionHash)
                .containsExactly("s1");
        send("s1", "a", 1, 2, 3);
        // another replica owns s2: its change is forgotten here, s1's is kept
        assertThat(sessions.discardChanges(mine.negate())).isEqualTo(1);
        assertThat(sessions.drain(clock.instant()).entries()).extracting(SessionEntry::sessionHash)
                .containsExactly("s1");

        // taking a partition over: only its sessions are compared with the topic and adopted
        SessionEntry oldS1 = new SessionEntry("e", clock.instant(), 1, "s1", "z", List.of(List.of(1L)), 1);
        SessionEntry s3 = new SessionEntry("e", clock.instant(), 1, "s3", "c", List.of(List.of(9L)), 1);
        SessionEntry s4 = new SessionEntry("e", clock.instant(), 1, "s4", "d", List.of(List.of(8L)), 1);
        send("s2", "b", 5, 6);
        sessions.reconcile(Map.of("s1", oldS1, "s3", s3, "s4", s4), clock.instant(), mine);

        assertThat(sessions.get("s3", clock.instant())).isPresent();
        assertThat(sessions.get("s4", clock.instant())).as("another partition's").isEmpty();
        assertThat(sessions.drain(clock.instant(), mine).entries()).extracting(SessionEntry::sessionHash)
                .containsExactly("s1");
        assertThat(sessions.drain(clock.instant()).entries()).extracting(SessionEntry::sessionHash)
                .as("another partition's change left pending").containsExactly("s2");
    }
}
