package dev.zerolayer.routing.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cluster health weighting, load-spike detection and passive diagnosis. */
class ClusterAndSpikeTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void clusterHealthIsCapacityWeighted() {
        double health = ClusterHealth.of(List.of(new ClusterHealth.Member(8, 1.0), new ClusterHealth.Member(2, 0.0)));
        assertThat(health).isCloseTo(0.8, within(1e-9));
        assertThat(ClusterHealth.of(List.of())).isZero();
    }

    @Test
    void aRiseOfMoreThanThirtyPercentWithinOneSecondIsASpike() {
        LoadSpikeDetector detector = new LoadSpikeDetector(0.30, Duration.ofSeconds(1));
        assertThat(detector.observe(T0, 0.50)).isFalse();
        assertThat(detector.observe(T0.plusMillis(500), 0.60)).isFalse(); // +20 %
        assertThat(detector.observe(T0.plusMillis(900), 0.70)).isTrue(); // +40 % over 0.50
        assertThat(detector.observe(T0.plusMillis(2_000), 0.72)).isFalse(); // 0.50 left the window
    }

    @Test
    void aSpikeStaysFlaggedForOneWindowAfterTheRiseSoASeeSawDoesNotFlap() {
        LoadSpikeDetector detector = new LoadSpikeDetector(0.30, Duration.ofSeconds(1));
        assertThat(detector.observe(T0, 0.20)).isFalse();
        assertThat(detector.observe(T0.plusMillis(100), 0.60)).isTrue();
        assertThat(detector.observe(T0.plusMillis(200), 0.20)).isTrue(); // load fell back: still within the window
        assertThat(detector.observe(T0.plusMillis(1_000), 0.20)).isTrue();
        assertThat(detector.observe(T0.plusMillis(1_100), 0.20)).isFalse(); // one window after the rise
    }

    @Test
    void theLowestLoadOfTheWindowIsTheBaseEvenAfterHigherOnesCame() {
        LoadSpikeDetector detector = new LoadSpikeDetector(0.30, Duration.ofSeconds(1));
        detector.observe(T0, 0.50);
        detector.observe(T0.plusMillis(100), 0.55);
        detector.observe(T0.plusMillis(200), 0.52);
        assertThat(detector.observe(T0.plusMillis(1_050), 0.66)).isFalse(); // 0.50 left; lowest is 0.52: +27 %
        assertThat(detector.observe(T0.plusMillis(1_150), 0.70)).isTrue(); // lowest still 0.52: +35 %
    }

    @Test
    void observationsOutOfOrderCountAtTheLatestTimeSoTheFlagDoesNotFlap() {
        LoadSpikeDetector detector = new LoadSpikeDetector(0.30, Duration.ofSeconds(1));
        detector.observe(T0.plusMillis(5_000), 0.20);
        assertThat(detector.observe(T0.plusMillis(5_100), 0.60)).isTrue();
        // a sample stamped 3 s earlier (another partition, consumed later) neither ends nor restarts the window
        assertThat(detector.observe(T0.plusMillis(2_000), 0.20)).isTrue();
        assertThat(detector.observe(T0.plusMillis(6_200), 0.20)).isFalse();
    }

    @Test
    void aDiagnosisWithoutFreshEvidenceLapsesAndTheNextObservationsStartAfresh() {
        PassiveDiagnosis diagnosis = new PassiveDiagnosis();
        for (int i = 0; i < 30; i++) {
            diagnosis.observe(T0.plusMillis(i * 100L), 100, 4);
        }
        for (int i = 0; i < 10; i++) {
            diagnosis.observe(T0.plusMillis(3_000 + i * 100L), 400, 4);
        }
        assertThat(diagnosis.diagnosis(T0.plusMillis(4_000))).contains(PassiveDiagnosis.GATEWAY_CONGESTION);
        // the router sends the node nothing for longer than the evidence window: the diagnosis lapses
        assertThat(diagnosis.diagnosis(T0.plusMillis(4_000 + PassiveDiagnosis.EVIDENCE_MS))).isEmpty();
        // and a normal request afterwards is judged against the baseline, not against the old anomaly
        diagnosis.observe(T0.plusMillis(5_000 + PassiveDiagnosis.EVIDENCE_MS), 100, 4);
        assertThat(diagnosis.diagnosis(T0.plusMillis(5_000 + PassiveDiagnosis.EVIDENCE_MS))).isEmpty();
    }

    @Test
    void anIdleClustersNoiseIsNoSpike() {
        LoadSpikeDetector detector = new LoadSpikeDetector(0.30, Duration.ofSeconds(1));
        detector.observe(T0, 0.01);
        assertThat(detector.observe(T0.plusMillis(100), 0.03)).isFalse();
    }

    @Test
    void ttfbUpWithSteadyChunksIsGatewayCongestion() {
        PassiveDiagnosis diagnosis = new PassiveDiagnosis();
        for (int i = 0; i < 30; i++) {
            diagnosis.observe(100, 4);
        }
        assertThat(diagnosis.diagnosis()).isEmpty();
        for (int i = 0; i < 10; i++) {
            diagnosis.observe(400, 4);
        }
        assertThat(diagnosis.diagnosis()).contains(PassiveDiagnosis.GATEWAY_CONGESTION);
    }

    @Test
    void aColdStartOutlierDoesNotHideALaterCongestion() {
        PassiveDiagnosis diagnosis = new PassiveDiagnosis();
        diagnosis.observe(2_090, 560);
        for (int i = 0; i < 25; i++) {
            diagnosis.observe(40, 180);
        }
        for (int i = 0; i < 10; i++) {
            diagnosis.observe(290, 170);
        }
        assertThat(diagnosis.diagnosis()).contains(PassiveDiagnosis.GATEWAY_CONGESTION);
    }

    @Test
    void steadyTtfbWithChunkVarianceUpIsAGpuBandwidthBottleneck() {
        PassiveDiagnosis diagnosis = new PassiveDiagnosis();
        for (int i = 0; i < 30; i++) {
            diagnosis.observe(100, 4);
        }
        for (int i = 0; i < 10; i++) {
            diagnosis.observe(105, 60);
        }
        assertThat(diagnosis.diagnosis()).contains(PassiveDiagnosis.GPU_BANDWIDTH_BOTTLENECK);
        // a long fault does not become the baseline
        for (int i = 0; i < 200; i++) {
            diagnosis.observe(105, 60);
        }
        assertThat(diagnosis.diagnosis()).contains(PassiveDiagnosis.GPU_BANDWIDTH_BOTTLENECK);
    }
}
