package dev.zerolayer.complexity.calibration;

import dev.zerolayer.platform.testing.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The sliding window per score band, and the threshold proposals that hold the fallback target. */
class CalibrationTest {

    private static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
    private final MutableClock clock = new MutableClock(START);
    private final CalibrationWindow window = new CalibrationWindow(clock, Duration.ofHours(1), 60, 10);
    private final PolicyDocument policy = PolicyDocument.defaults();
    private final Calibrator.Settings settings = new Calibrator.Settings(0.05, 100, 20);

    @Test
    void countsPerBandAndForgetsDecisionsOlderThanTheWindow() {
        record(30, 0.15, "haiku", "haiku", false, null);
        record(10, 0.35, "sonnet", "haiku", true, "target_cluster_unavailable");
        clock.advance(Duration.ofMinutes(30));
        record(5, 0.35, "sonnet", "sonnet", false, null);

        BandCounts[] bands = window.snapshot();
        assertThat(bands[1].decisions()).isEqualTo(30);
        assertThat(bands[3].decisions()).isEqualTo(15);
        assertThat(bands[3].fallbacks()).isEqualTo(10);
        assertThat(bands[3].moved("sonnet", "haiku")).isEqualTo(10);
        assertThat(bands[3].served()).containsEntry("haiku", 10L).containsEntry("sonnet", 5L);

        // When the first half hour leaves the window
        clock.advance(Duration.ofMinutes(31));
        bands = window.snapshot();
        assertThat(bands[1].decisions()).isZero();
        assertThat(bands[3].decisions()).isEqualTo(5);
        assertThat(bands[3].fallbacks()).isZero();

        // A decision stamped before the window is not counted; one from the future counts now
        assertThat(window.record(new Observation(clock.instant().minus(Duration.ofHours(2)), 0.5, "sonnet", "sonnet",
                false, false, null))).isFalse();
        assertThat(window.record(new Observation(clock.instant().plus(Duration.ofHours(2)), 0.5, "sonnet", "sonnet",
                false, false, null))).isTrue();
        assertThat(window.snapshot()[5].decisions()).isEqualTo(1);
        assertThat(window.band(1.0)).isEqualTo(9);
    }

    @Test
    void raisesTheLowerThresholdWhenRequestsAboveItKeepFallingToTheLowerTier() {
        record(100, 0.15, "haiku", "haiku", false, null);
        record(40, 0.35, "sonnet", "haiku", true, "target_cluster_unavailable");
        record(60, 0.35, "sonnet", "sonnet", false, null);
        record(30, 0.45, "sonnet", "haiku", true, "peak_load_shaping");
        record(70, 0.45, "sonnet", "sonnet", false, null);
        record(100, 0.55, "sonnet", "sonnet", false, null);

        Calibrator.Report report = Calibrator.calibrate(window.snapshot(), policy, settings);

        assertThat(report.decisions()).isEqualTo(400);
        assertThat(report.fallbackRate()).isCloseTo(70 / 400.0, within(1e-9));
        assertThat(report.bands().get(3).fallbackRate()).isCloseTo(0.4, within(1e-9));
        Calibrator.Proposal proposal = report.proposal();
        assertThat(proposal.status()).isEqualTo(Calibrator.PROPOSED);
        assertThat(proposal.proposed()).containsEntry("haiku", 0.5).containsEntry("sonnet", 0.6);
        assertThat(proposal.changes()).singleElement().satisfies(change -> {
            assertThat(change.direction()).isEqualTo("raise");
            assertThat(change.from()).isEqualTo(0.3);
            assertThat(change.to()).isEqualTo(0.5);
            assertThat(change.decisionsMoved()).isEqualTo(200);
            assertThat(change.fallbacksAvoided()).isEqualTo(70);
        });
        assertThat(proposal.predictedFallbackRate()).isZero();
        assertThat(report.tierMix()).containsEntry("haiku", 170 / 400.0);
    }

    @Test
    void lowersAThresholdWhenRequestsBelowItGoUpAndStopsAtTheFirstBandWithinTarget() {
        record(200, 0.05, "haiku", "haiku", false, null);
        record(100, 0.15, "haiku", "haiku", false, null);
        record(2, 0.15, "haiku", "sonnet", true, "target_cluster_unavailable");
        record(50, 0.25, "haiku", "sonnet", true, "target_cluster_unavailable");
        record(50, 0.25, "haiku", "haiku", false, null);

        Calibrator.Proposal proposal = Calibrator.calibrate(window.snapshot(), policy, settings).proposal();

        assertThat(proposal.status()).isEqualTo(Calibrator.PROPOSED);
        assertThat(proposal.changes()).singleElement().satisfies(change -> {
            assertThat(change.direction()).isEqualTo("lower");
            assertThat(change.to()).isEqualTo(0.2);
            assertThat(change.fallbacksAvoided()).isEqualTo(50);
            assertThat(change.towardTier()).isEqualTo("sonnet");
        });
        assertThat(proposal.predictedFallbackRate()).isCloseTo(2 / 402.0, within(1e-9));
    }

    @Test
    void pinnedRequestsAndHighComplexityFallbacksNeverMoveAThreshold() {
        record(100, 0.15, "haiku", "haiku", false, null);
        // pinned to haiku, yet the table said sonnet and they fell back: not the threshold's doing
        for (int i = 0; i < 50; i++) {
            window.record(new Observation(clock.instant(), 0.35, "sonnet", "haiku", true, true,
                    "target_cluster_unavailable"));
        }
        record(50, 0.97, "opus", "sonnet", true, CalibrationWindow.HIGH_COMPLEXITY_FALLBACK);

        Calibrator.Report report = Calibrator.calibrate(window.snapshot(), policy, settings);

        assertThat(report.fallbackRate()).isCloseTo(0.5, within(1e-9));
        assertThat(report.proposal().status()).isEqualTo(Calibrator.NO_THRESHOLD_CHANGE);
        assertThat(report.proposal().proposed()).isEqualTo(report.proposal().current());
        assertThat(report.proposal().note()).contains("high_complexity_fallback");
    }

    @Test
    void saysWhenThereIsTooLittleDataOrTheTargetIsMet() {
        record(50, 0.35, "sonnet", "haiku", true, "target_cluster_unavailable");
        assertThat(Calibrator.calibrate(window.snapshot(), policy, settings).proposal().status())
                .isEqualTo(Calibrator.INSUFFICIENT_DATA);

        record(2_000, 0.35, "sonnet", "sonnet", false, null);
        Calibrator.Report report = Calibrator.calibrate(window.snapshot(), policy, settings);
        assertThat(report.fallbackRate()).isLessThanOrEqualTo(0.05);
        assertThat(report.proposal().status()).isEqualTo(Calibrator.WITHIN_TARGET);
        assertThat(report.proposal().changes()).isEmpty();
    }

    private void record(int count, double score, String tableTier, String servedTier, boolean fallback,
            String reason) {
        for (int i = 0; i < count; i++) {
            assertThat(window.record(new Observation(clock.instant(), score, tableTier, servedTier, false, fallback,
                    reason))).isTrue();
        }
    }
}
