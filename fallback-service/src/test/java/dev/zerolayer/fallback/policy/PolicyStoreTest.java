package dev.zerolayer.fallback.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.fallback.policy.HistoryEntry.Action;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Versions grow by one per accepted change, only after publication; the history survives a new store on the same dir. */
class PolicyStoreTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final List<FallbackPolicy> published = new ArrayList<>();
    private boolean brokerUp = true;

    private PolicyStore store() {
        return new PolicyStore(new PolicyHistory(dir), policy -> brokerUp && published.add(policy), clock);
    }

    static PolicyDocument withClusterHealthMin(double value) {
        PolicyDocument d = PolicyDocument.defaults();
        Thresholds t = d.thresholds();
        Thresholds changed = t.toBuilder().clusterHealthMin(value).build();
        return new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(), changed, d.limits(),
                d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting());
    }

    @Test
    void anEmptyTopicAndHistoryGetTheDefaultAsVersionOne() {
        PolicyStore store = store();
        assertThat(store.ready()).isFalse();
        assertThatThrownBy(store::active).isInstanceOf(PolicyStoreException.class);

        store.initialise(Optional.empty(), 0);

        assertThat(store.active().version()).isEqualTo(1);
        assertThat(store.active().document()).isEqualTo(PolicyDocument.defaults());
        assertThat(published).extracting(FallbackPolicy::version).containsExactly(1L);
        assertThat(store.history()).extracting(HistoryEntry::action).containsExactly(Action.INITIAL);
    }

    @Test
    void aFollowerRefusesWritesForNowButAdoptsAndRecordsEachVersionTheLeaderPublishes() {
        PolicyStore follower = store();
        FallbackPolicy first = new FallbackPolicy("e1", clock.instant(), 1, 1, "fallback-service",
                PolicyDocument.defaults());
        FallbackPolicy second = new FallbackPolicy("e2", clock.instant(), 1, 2, "admin:ab12",
                withClusterHealthMin(0.6));

        follower.observe(first);
        follower.observe(second);
        follower.observe(first); // a late or replayed record changes nothing

        assertThat(follower.writing()).isFalse();
        assertThat(follower.active().version()).isEqualTo(2);
        assertThat(follower.history()).extracting(HistoryEntry::version, HistoryEntry::by, HistoryEntry::action)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "fallback-service", Action.OBSERVED),
                        org.assertj.core.groups.Tuple.tuple(2L, "admin:ab12", Action.OBSERVED));
        assertThat(follower.history().get(1).changes()).containsExactly(
                new PolicyChange("/thresholds/clusterHealthMin", PolicyChange.Kind.CHANGED));
        assertThatThrownBy(() -> follower.update(withClusterHealthMin(0.7), "admin:ab12", OptionalLong.of(2)))
                .isInstanceOfSatisfying(dev.zerolayer.platform.web.ApiException.class, refused -> {
                    assertThat(refused.status()).isEqualTo(503);
                    assertThat(refused.retryAfterSeconds()).isEqualTo(1);
                });
        assertThat(published).isEmpty();

        // When it takes over: the history it kept matches the topic, nothing is republished, and it writes
        PolicyStore leader = store();
        leader.initialise(Optional.of(second), 2);
        assertThat(published).isEmpty();
        assertThat(leader.update(withClusterHealthMin(0.7), "admin:ab12", OptionalLong.of(2)).entry().version())
                .isEqualTo(3);

        // and a term that ended while it reconciled takes no writes
        PolicyStore late = store();
        late.initialise(Optional.of(leader.active()), 3, () -> false);
        assertThat(late.writing()).isFalse();
    }

    @Test
    void updatesNeedTheActiveVersionAndAreAuditedWithADiff() {
        PolicyStore store = store();
        store.initialise(Optional.empty(), 0);
        clock.advance(Duration.ofMinutes(1));

        PolicyStore.Applied applied = store.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(1));

        assertThat(applied.changed()).isTrue();
        assertThat(applied.entry().version()).isEqualTo(2);
        assertThat(applied.entry().by()).isEqualTo("admin:ab12");
        assertThat(applied.entry().at()).isEqualTo(Instant.parse("2026-11-29T12:01:00Z"));
        assertThat(applied.entry().changes()).containsExactly(
                new PolicyChange("/thresholds/clusterHealthMin", PolicyChange.Kind.CHANGED));
        assertThat(published.get(published.size() - 1).version()).isEqualTo(2);

        assertThatThrownBy(() -> store.update(withClusterHealthMin(0.5), "admin:ab12", OptionalLong.of(1)))
                .isInstanceOf(PolicyStoreException.class)
                .satisfies(e -> assertThat(((PolicyStoreException) e).status()).isEqualTo(412));
        assertThat(store.active().version()).isEqualTo(2);

        PolicyStore.Applied same = store.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(2));
        assertThat(same.changed()).isFalse();
        assertThat(store.active().version()).isEqualTo(2);
    }

    @Test
    void aChangeThatCannotBePublishedLeavesTheActivePolicyAndHistoryUntouched() {
        PolicyStore store = store();
        store.initialise(Optional.empty(), 0);
        brokerUp = false;

        assertThatThrownBy(() -> store.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(1)))
                .isInstanceOf(PolicyStoreException.class)
                .satisfies(e -> assertThat(((PolicyStoreException) e).status()).isEqualTo(503));
        assertThat(store.active().version()).isEqualTo(1);
        assertThat(store.history()).hasSize(1);
        assertThat(new PolicyHistory(dir).load()).hasSize(1);
    }

    @Test
    void rollbackRepublishesAnEarlierDocumentAsTheNextVersion() {
        PolicyStore store = store();
        store.initialise(Optional.empty(), 0);
        store.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(1));

        PolicyStore.Applied rolled = store.rollback(1, "admin:cd34", OptionalLong.of(2));

        assertThat(rolled.entry().version()).isEqualTo(3);
        assertThat(rolled.entry().action()).isEqualTo(Action.ROLLBACK);
        assertThat(rolled.entry().restoredVersion()).isEqualTo(1L);
        assertThat(store.active().document()).isEqualTo(PolicyDocument.defaults());
        assertThatThrownBy(() -> store.rollback(42, "admin:cd34", OptionalLong.empty()))
                .isInstanceOf(PolicyStoreException.class)
                .satisfies(e -> assertThat(((PolicyStoreException) e).status()).isEqualTo(404));
    }

    @Test
    void aRestartKeepsTheHistoryAndAdoptsTheTopicsActiveVersion() {
        PolicyStore first = store();
        first.initialise(Optional.empty(), 0);
        first.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(1));
        FallbackPolicy onTopic = published.get(published.size() - 1);
        published.clear();

        PolicyStore second = store();
        second.initialise(Optional.of(onTopic), onTopic.version());

        assertThat(second.active().version()).isEqualTo(2);
        assertThat(second.history()).extracting(HistoryEntry::version).containsExactly(1L, 2L);
        assertThat(second.history().get(1).by()).isEqualTo("admin:ab12");
        assertThat(published).isEmpty();
    }

    @Test
    void aVersionOnTheTopicMissingLocallyIsRecordedAsObserved() {
        PolicyStore first = store();
        first.initialise(Optional.empty(), 0);
        FallbackPolicy newer = new FallbackPolicy(EventChecks.newEventId(), clock.instant(), 1, 5, "admin:ef56",
                withClusterHealthMin(0.65));

        PolicyStore second = store();
        second.initialise(Optional.of(newer), 5);

        assertThat(second.active().version()).isEqualTo(5);
        HistoryEntry observed = second.history().get(1);
        assertThat(observed.action()).isEqualTo(Action.OBSERVED);
        assertThat(observed.by()).isEqualTo("admin:ef56");
        assertThat(observed.changes()).extracting(PolicyChange::path).containsExactly("/thresholds/clusterHealthMin");
    }

    @Test
    void anEmptiedTopicGetsTheHistorysLatestVersionBack() {
        PolicyStore first = store();
        first.initialise(Optional.empty(), 0);
        first.update(withClusterHealthMin(0.6), "admin:ab12", OptionalLong.of(1));
        published.clear();

        PolicyStore second = store();
        second.initialise(Optional.empty(), 0);

        assertThat(second.active().version()).isEqualTo(2);
        assertThat(published).extracting(FallbackPolicy::version).containsExactly(2L);
        assertThat(published.get(0).document()).isEqualTo(withClusterHealthMin(0.6));
    }

    @Test
    void aTornLastLineIsCutAndTheRestKept() throws IOException {
        PolicyStore first = store();
        first.initialise(Optional.empty(), 0);
        Path file = new PolicyHistory(dir).file();
        Files.writeString(file, "{\"version\":2,\"at\":", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        List<HistoryEntry> loaded = new PolicyHistory(dir).load();

        assertThat(loaded).extracting(HistoryEntry::version).containsExactly(1L);
        assertThat(Files.readString(file)).endsWith("\n");
    }
}
