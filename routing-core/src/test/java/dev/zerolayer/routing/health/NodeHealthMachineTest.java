package dev.zerolayer.routing.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Each SPEC section 4 rule of the node health machine, driven by sample timestamps. */
class NodeHealthMachineTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    private final NodeHealthMachine machine = new NodeHealthMachine(8, HealthRules.defaults(), new WarmupHistory());

    private static TelemetrySample sample(long ms, double sm, boolean warming, int waiting, long xid) {
        return new TelemetrySample("e" + ms, T0.plusMillis(ms), 1, "n1", sm, 1e9, 1e9, 0.1, 20_000, 20_000, 0.05, 4,
                waiting, 0.3, warming, xid);
    }

    private static TelemetrySample sample(long ms, double sm) {
        return sample(ms, sm, false, 0, 0);
    }

    @Test
    void isDownUntilTheFirstSampleAndHealthyWithAnIdleOne() {
        assertThat(machine.state()).isEqualTo(NodeState.DOWN);
        assertThat(machine.reasons()).containsExactly("no sample yet");
        assertThat(machine.onSample(sample(0, 0.40))).isEqualTo(NodeState.HEALTHY);
        assertThat(machine.score()).isGreaterThan(0.9);
    }

    @Test
    void smAboveNinetyFiveForFiveHundredMillisecondsMakesItUnavailable() {
        machine.onSample(sample(0, 0.50));
        for (long ms = 100; ms < 600; ms += 100) {
            assertThat(machine.onSample(sample(ms, 0.97))).as("at %d ms", ms).isNotEqualTo(NodeState.UNAVAILABLE);
        }
        // first high sample at 100 ms: held 500 ms at 600 ms
        assertThat(machine.onSample(sample(600, 0.97))).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.score()).isZero();
        assertThat(machine.reasons()).anySatisfy(r -> assertThat(r).startsWith("sm_active above 0.95"));
    }

    @Test
    void aDipResetsTheHold() {
        machine.onSample(sample(0, 0.97));
        machine.onSample(sample(400, 0.97));
        machine.onSample(sample(450, 0.94));
        assertThat(machine.onSample(sample(600, 0.97))).isNotEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(1_100, 0.97))).isEqualTo(NodeState.UNAVAILABLE);
    }

    @Test
    void recoversOnlyAfterStayingBelowNinetyForFiveHundredMilliseconds() {
        machine.onSample(sample(0, 0.99));
        machine.onSample(sample(500, 0.99));
        assertThat(machine.state()).isEqualTo(NodeState.UNAVAILABLE);

        machine.onSample(sample(600, 0.92)); // below 0.95 but not below 0.90: no recovery clock
        assertThat(machine.onSample(sample(1_200, 0.92))).isEqualTo(NodeState.UNAVAILABLE);
        machine.onSample(sample(1_300, 0.60));
        assertThat(machine.onSample(sample(1_700, 0.60))).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(1_800, 0.60))).isEqualTo(NodeState.HEALTHY);
    }

    @Test
    void warmUpWaitsForAGoodProbeSentFiftyMillisecondsBeforeThePredictedTime() {
        machine.onSample(sample(0, 0.10, true, 0, 0));
        assertThat(machine.state()).isEqualTo(NodeState.WARMING);
        assertThat(machine.predictedReadyAt()).contains(T0.plusMillis(30_000));
        assertThat(machine.probeDueAt()).contains(T0.plusMillis(29_950));

        // a bad probe re-predicts later; the node stays WARMING
        assertThat(machine.onProbe(false, T0.plusMillis(29_950))).isEqualTo(NodeState.WARMING);
        assertThat(machine.predictedReadyAt().orElseThrow()).isAfter(T0.plusMillis(30_000));

        // a good probe makes it HEALTHY and teaches the history
        assertThat(machine.onProbe(true, T0.plusMillis(36_000))).isEqualTo(NodeState.HEALTHY);
        assertThat(machine.warmups().durationsMs()).containsExactly(36_000L);

        // the next warm-up is predicted from this node's past
        machine.onSample(sample(100_000, 0.10, true, 0, 0));
        assertThat(machine.predictedReadyAt()).contains(T0.plusMillis(136_000));
    }

    @Test
    void aNodeReportingItsWarmUpOverIsProbedAtOnceAndTheShorterDurationIsLearned() {
        machine.onSample(sample(0, 0.10, true, 0, 0));
        machine.onSample(sample(4_000, 0.10, false, 0, 0));
        assertThat(machine.state()).isEqualTo(NodeState.WARMING);
        assertThat(machine.probeDueAt()).contains(T0.plusMillis(4_000));
        assertThat(machine.onProbe(true, T0.plusMillis(4_020))).isEqualTo(NodeState.HEALTHY);
        assertThat(machine.warmups().durationsMs()).containsExactly(4_020L);
    }

    @Test
    void noSampleWithinTheStalenessLimitMakesItDownUntilSamplesResume() {
        machine.onSample(sample(0, 0.30));
        assertThat(machine.onTick(T0.plusMillis(3_000))).isEqualTo(NodeState.HEALTHY);
        assertThat(machine.onTick(T0.plusMillis(3_001))).isEqualTo(NodeState.DOWN);
        assertThat(machine.onSample(sample(3_100, 0.30))).isEqualTo(NodeState.HEALTHY);
    }

    @Test
    void newXidErrorsDegradeItForTheErrorWindow() {
        machine.onSample(sample(0, 0.30, false, 0, 2));
        assertThat(machine.onSample(sample(100, 0.30, false, 0, 3))).isEqualTo(NodeState.DEGRADED);
        assertThat(machine.onSample(sample(30_099, 0.30, false, 0, 3))).isEqualTo(NodeState.DEGRADED);
        assertThat(machine.onSample(sample(30_100, 0.30, false, 0, 3))).isEqualTo(NodeState.HEALTHY);
    }

    @Test
    void aLongQueueAndHotSmsLowerTheScoreIntoDegraded() {
        machine.onSample(sample(0, 0.94, false, 40, 0));
        assertThat(machine.state()).isEqualTo(NodeState.DEGRADED);
        assertThat(machine.score()).isBetween(0.0, 0.6);
    }

    @Test
    void olderSamplesAreIgnored() {
        machine.onSample(sample(1_000, 0.30));
        machine.onSample(sample(500, 0.99));
        assertThat(machine.lastSample().orElseThrow().smActive()).isEqualTo(0.30);
    }

    @Test
    void aRestoredUnavailableNodeStaysUnavailableUntilItsSmsStayLowForTheHoldTime() {
        machine.restore(NodeState.UNAVAILABLE, 0.0, null, T0);
        assertThat(machine.state()).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(100, 0.97))).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(200, 0.40))).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(600, 0.40))).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(machine.onSample(sample(700, 0.40))).isEqualTo(NodeState.HEALTHY);
    }

    @Test
    void aRestoredRoutableNodeKeepsItsStateAndScoreUntilTheStalenessLimitAfterTheRestore() {
        machine.restore(NodeState.DEGRADED, 0.4, null, T0);
        assertThat(machine.state()).isEqualTo(NodeState.DEGRADED);
        assertThat(machine.score()).isEqualTo(0.4);
        assertThat(machine.onTick(T0.plusMillis(2_900))).isEqualTo(NodeState.DEGRADED);
        assertThat(machine.onTick(T0.plusMillis(3_100))).isEqualTo(NodeState.DOWN);
    }

    @Test
    void aRestoredWarmUpKeepsItsPredictionAndItsProbe() {
        Instant predicted = T0.plusMillis(4_000);
        machine.restore(NodeState.WARMING, 0.0, predicted, T0);
        assertThat(machine.state()).isEqualTo(NodeState.WARMING);
        assertThat(machine.predictedReadyAt()).contains(predicted);
        assertThat(machine.probeDueAt()).contains(predicted.minusMillis(HealthRules.defaults().warmupProbeLeadMs()));
    }

    @Test
    void aDownRecordRestoresNothing() {
        machine.restore(NodeState.DOWN, 0.0, null, T0);
        assertThat(machine.state()).isEqualTo(NodeState.DOWN);
        assertThat(machine.onTick(T0)).isEqualTo(NodeState.DOWN);
    }
}
