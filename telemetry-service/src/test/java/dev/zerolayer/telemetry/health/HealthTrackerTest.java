package dev.zerolayer.telemetry.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.platform.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Publication on change and heartbeat, and the passive diagnosis fed only by streamed requests. */
class HealthTrackerTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    /** Keeps what would have been published. */
    private static final class Published implements HealthPublisher {
        final List<NodeHealth> records = new ArrayList<>();

        @Override
        public boolean publish(NodeHealth health) {
            records.add(health);
            return true;
        }
    }

    private final Published published = new Published();
    private final HealthTracker tracker = new HealthTracker(published, Clock.fixed(T0, ZoneOffset.UTC),
            Duration.ofSeconds(2), new SimpleMeterRegistry());

    private static TelemetrySample sample(long ms, double sm) {
        return new TelemetrySample(UUID.randomUUID().toString(), T0.plusMillis(ms), 1, "n1", sm, 1e9, 1e9, 0.1,
                20_000, 20_000, 0.05, 2, 0, 0.2, false, 0);
    }

    private static RoutingDecision served(boolean streaming, long ttfb, double variance) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(T0)
                .requestId(UUID.randomUUID().toString()).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("m").streaming(streaming).tier("sonnet").cluster("c").node("n1")
                .nodesTried(List.of("n1")).tokenCount(10).complexityScore(0.5).complexityModelVersion("v")
                .policyVersion(1).routeTimeMicros(100).ttfbMillis(ttfb).chunkIntervalVarianceMs2(variance)
                .totalLatencyMillis(ttfb + 300).inputTokens(10).outputTokens(12).status(DecisionStatus.OK)
                .httpStatus(200).build();
    }

    @Test
    void publishesOnRegistrationAndOnStateChangeButNotOnEverySample() {
        tracker.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        assertThat(published.records).hasSize(1);
        tracker.onSample(sample(0, 0.4));
        int afterHealthy = published.records.size();
        tracker.onSample(sample(100, 0.41));
        tracker.onSample(sample(200, 0.42));
        assertThat(published.records).hasSize(afterHealthy);
        for (int ms = 300; ms <= 800; ms += 100) {
            tracker.onSample(sample(ms, 0.99));
        }
        assertThat(published.records.get(published.records.size() - 1).state()).isEqualTo(NodeState.UNAVAILABLE);
    }

    @Test
    void aLoadMoveOfAStepGoesOutBeforeTheHeartbeatAtMostOncePerInterval() {
        // Given a node of capacity 10 whose load moves are published from a step of 0.2, at most every 500 ms (the
        // load falls here: in a one-node cluster a rise also flags a cluster spike, which is published on its own)
        MutableClock wall = new MutableClock(T0);
        HealthTracker tracker = new HealthTracker(published, wall, Duration.ofSeconds(2),
                new HealthTracker.LoadChange(0.2, Duration.ofMillis(500)), new SimpleMeterRegistry(), () -> null);
        tracker.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 10, "p"));
        running(tracker, wall, 0, 9);
        int settled = published.records.size();
        assertThat(published.records.get(settled - 1).load()).isEqualTo(0.9);
        // When the load moves by less than a step: nothing before the heartbeat
        running(tracker, wall, 100, 8);
        assertThat(published.records).hasSize(settled);
        // When it moves by 0.5 sooner than 500 ms after the last record: held back
        running(tracker, wall, 100, 4);
        assertThat(published.records).hasSize(settled);
        // Then it goes out with the first sample once the interval has passed, long before the 2 s heartbeat
        running(tracker, wall, 300, 4);
        assertThat(published.records).hasSize(settled + 1);
        assertThat(published.records.get(settled).load()).isEqualTo(0.4);
        assertThat(published.records.get(settled).clusterLoadSpike()).isFalse();
        // and the next step counts from what was published
        running(tracker, wall, 500, 3);
        assertThat(published.records).hasSize(settled + 1);
        running(tracker, wall, 100, 2);
        assertThat(published.records).hasSize(settled + 2);
        assertThat(published.records.get(settled + 1).load()).isEqualTo(0.2);
    }

    @Test
    void withoutALoadStepLoadMovesWaitForTheHeartbeat() {
        MutableClock wall = new MutableClock(T0);
        HealthTracker tracker = new HealthTracker(published, wall, Duration.ofSeconds(2), HealthTracker.LoadChange.OFF,
                new SimpleMeterRegistry(), () -> null);
        tracker.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 10, "p"));
        running(tracker, wall, 0, 9);
        int settled = published.records.size();
        running(tracker, wall, 600, 2);
        running(tracker, wall, 600, 1);
        assertThat(published.records).hasSize(settled);
        running(tracker, wall, 900, 1);
        assertThat(published.records).hasSize(settled + 1);
        assertThat(published.records.get(settled).load()).isEqualTo(0.1);
    }

    /** A sample of n1 with {@code requests} running, {@code afterMs} after the previous one (the wall clock too). */
    private static void running(HealthTracker tracker, MutableClock wall, long afterMs, int requests) {
        wall.advance(Duration.ofMillis(afterMs));
        Instant at = wall.instant();
        tracker.onSample(new TelemetrySample(UUID.randomUUID().toString(), at, 1, "n1", 0.4, 1e9, 1e9, 0.1, 20_000,
                20_000, 0.05, requests, 0, 0.2, false, 0), at, 0);
    }

    @Test
    void onlyStreamedRequestsFeedThePassiveDiagnosis() {
        tracker.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        tracker.onSample(sample(0, 0.4));
        for (int i = 0; i < 30; i++) {
            tracker.onDecision(served(false, 900, 0)); // non-streaming: no chunk intervals
        }
        for (int i = 0; i < 30; i++) {
            tracker.onDecision(served(true, 20, 140));
        }
        assertThat(tracker.snapshot("n1").orElseThrow().diagnosis()).isNull();
        for (int i = 0; i < 10; i++) {
            tracker.onDecision(served(true, 300, 140));
        }
        assertThat(tracker.snapshot("n1").orElseThrow().diagnosis()).isEqualTo("gateway_congestion");
    }

    @Test
    void aBacklogOfSamplesDoesNotMakeNodesStaleButSilenceDoes() {
        // Given a service 10 s behind its sample stream (the records it applies were written 10 s ago)
        MutableClock wall = new MutableClock(T0.plusSeconds(10));
        HealthTracker behind = behindItsStream(wall, Duration.ZERO);
        // When the ticker runs: the last sample is 9 s old by the wall clock, but fresh on the stream clock
        behind.tick();
        assertThat(behind.snapshot("n1").orElseThrow().state()).isEqualTo(NodeState.HEALTHY);
        // When no record at all arrives for longer than the staleness limit (3 s by default)
        wall.advance(Duration.ofMillis(3_200));
        behind.tick();
        // Then the node is DOWN
        assertThat(behind.snapshot("n1").orElseThrow().state()).isEqualTo(NodeState.DOWN);
    }

    @Test
    void behindItsStreamAConsumerThatStallsIsNotTakenForSilenceUntilTheBacklogPauseIsOver() {
        // Given a service 10 s behind its sample stream that waits 5 s for a partition's next record
        MutableClock wall = new MutableClock(T0.plusSeconds(10));
        HealthTracker behind = behindItsStream(wall, Duration.ofSeconds(5));
        // When its consumer stalls mid-backlog for longer than the 3 s staleness limit (a slow start, a busy machine)
        wall.advance(Duration.ofMillis(7_900));
        behind.tick();
        // Then the node keeps its state: the records are there, the service has not read them yet
        assertThat(behind.snapshot("n1").orElseThrow().state()).isEqualTo(NodeState.HEALTHY);
        // And once the pause is over, silence is silence
        wall.advance(Duration.ofMillis(300));
        behind.tick();
        assertThat(behind.snapshot("n1").orElseThrow().state()).isEqualTo(NodeState.DOWN);
    }

    /** A tracker of node n1 that has applied 1 s of its samples, each written 10 s before the wall clock's start. */
    private HealthTracker behindItsStream(MutableClock wall, Duration backlogPause) {
        HealthTracker behind = new HealthTracker(published, wall, Duration.ofSeconds(2), HealthTracker.LoadChange.OFF,
                new SimpleMeterRegistry(), () -> null, backlogPause);
        behind.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        for (int ms = 0; ms <= 1_000; ms += 100) {
            behind.onSample(sample(ms, 0.4), T0.plusMillis(ms), 0);
            wall.advance(Duration.ofMillis(10));
        }
        return behind;
    }

    @Test
    void caughtUpTheStreamClockDoesNotWaitForTheNextRecord() {
        StreamClock stream = new StreamClock(Duration.ofSeconds(5));
        stream.observe(T0, T0.plusMillis(200));
        assertThat(stream.now(T0.plusMillis(4_200))).isEqualTo(T0.plusSeconds(4));
        StreamClock behind = new StreamClock(Duration.ofSeconds(5));
        behind.observe(T0, T0.plusSeconds(9));
        assertThat(behind.now(T0.plusSeconds(13))).isEqualTo(T0);
        assertThat(behind.now(T0.plusSeconds(16))).isEqualTo(T0.plusSeconds(2));
        behind.observe(T0.plusSeconds(15), T0.plusMillis(15_300)); // caught up again
        assertThat(behind.now(T0.plusMillis(17_300))).isEqualTo(T0.plusSeconds(17));
    }

    @Test
    void eachPartitionHasItsOwnStreamClock() {
        // Given a consumer far ahead on partition 1 and behind on partition 0
        MutableClock wall = new MutableClock(T0.plusSeconds(10));
        HealthTracker behind = new HealthTracker(published, wall, Duration.ofSeconds(2), new SimpleMeterRegistry());
        behind.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        behind.register(NodeRegistration.of("n2", "sonnet", "c", null, "http://127.0.0.1:2",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        behind.onSample(sample(0, 0.4), T0, 0);
        behind.onSample(new TelemetrySample(UUID.randomUUID().toString(), T0.plusMillis(9_900), 1, "n2", 0.4, 1e9,
                1e9, 0.1, 20_000, 20_000, 0.05, 2, 0, 0.2, false, 0), T0.plusMillis(9_900), 1);
        // When the ticker runs
        behind.tick();
        // Then n1 (partition 0, 10 s behind) is not taken for silent because partition 1 is current
        assertThat(behind.snapshot("n1").orElseThrow().state()).isEqualTo(NodeState.HEALTHY);
        assertThat(behind.snapshot("n2").orElseThrow().state()).isEqualTo(NodeState.HEALTHY);
    }

    @Test
    void theStreamClockNeverRunsAheadOfTheWallClock() {
        StreamClock stream = new StreamClock();
        assertThat(stream.now(T0)).isEqualTo(T0);
        stream.observe(T0.minusSeconds(5), T0);
        assertThat(stream.now(T0.plusSeconds(1))).isEqualTo(T0.minusSeconds(4));
        stream.observe(T0.minusSeconds(6), T0.plusSeconds(1)); // older record: no step back
        assertThat(stream.now(T0.plusSeconds(1))).isEqualTo(T0.minusSeconds(4));
        stream.observe(T0.plusSeconds(30), T0.plusSeconds(2)); // a node clock ahead
        assertThat(stream.now(T0.plusSeconds(3))).isEqualTo(T0.plusSeconds(3));
    }

    @Test
    void aReleasedNodeIsNeverPublishedAgainAndEveryRecordNamesItsWriter() {
        Writer writer = new Writer("replica-a", 4);
        HealthTracker owned = new HealthTracker(published, Clock.fixed(T0, ZoneOffset.UTC), Duration.ZERO,
                HealthTracker.LoadChange.OFF, new SimpleMeterRegistry(), () -> writer);
        owned.register(NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p"));
        owned.onSample(sample(0, 0.4));
        assertThat(published.records).isNotEmpty().allSatisfy(record -> assertThat(record.writer()).isEqualTo(writer));

        // When another replica takes the node over
        assertThat(owned.release(node -> node.equals("n1"))).containsExactly("n1");
        int before = published.records.size();

        // Then nothing about it goes out any more: not samples, ticks (a zero heartbeat is always due) nor probes
        assertThat(owned.onSample(sample(100, 0.99))).isFalse();
        owned.tick();
        owned.onProbe("n1", true);
        assertThat(published.records).hasSize(before);
        assertThat(owned.runs("n1")).isFalse();
        assertThat(owned.snapshot()).isEmpty();
    }

    @Test
    void anotherReplicasNodesCountInTheirClustersLoad() {
        NodeRegistration ours = NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p");
        NodeRegistration theirs = NodeRegistration.of("n2", "sonnet", "c", null, "http://127.0.0.1:2",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p");
        tracker.register(ours);
        tracker.onSample(sample(0, 0.4)); // 2 of 8 slots busy here
        tracker.observeForeign(foreign(theirs, 0.25, 0));
        tracker.onSample(sample(100, 0.4));
        assertThat(tracker.snapshot("n1").orElseThrow().clusterLoadSpike()).isFalse();

        // When the other replica's node fills up and queues, while ours stays as it was
        tracker.observeForeign(foreign(theirs, 1.0, 8));
        tracker.onSample(sample(200, 0.4));

        // Then the cluster, judged whole, is in a spike
        assertThat(tracker.snapshot("n1").orElseThrow().clusterLoadSpike()).isTrue();
        assertThat(published.records.get(published.records.size() - 1).clusterLoadSpike()).isTrue();
    }

    @Test
    void aForeignRecordOfANodeRunHereChangesNothing() {
        NodeRegistration ours = NodeRegistration.of("n1", "sonnet", "c", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "p");
        tracker.register(ours);
        tracker.onSample(sample(0, 0.4));

        tracker.observeForeign(foreign(ours, 1.0, 50));
        tracker.onSample(sample(100, 0.4));

        assertThat(tracker.snapshot("n1").orElseThrow().clusterLoadSpike()).isFalse();
    }

    private static NodeHealth foreign(NodeRegistration registration, double load, int queue) {
        return new NodeHealth(UUID.randomUUID().toString(), T0, 1, registration.nodeId(), registration,
                NodeState.HEALTHY, 0.9, List.of(), null, load, queue, 0.1, null, List.of(), 0, false, 1)
                .withWriter(new Writer("replica-b", 2));
    }
}
