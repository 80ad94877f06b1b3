package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsTest {

    static final PolicyDocument POLICY = PolicyDocument.defaults();

    static Outcome ok(int id, double arrival, String tier, double ttft) {
        return new Outcome(id, arrival, Outcome.Status.OK, tier, tier, "n", ttft, 100, 0, 10, 1, null, arrival + ttft + 1);
    }

    static Outcome timeout(int id, double arrival, String tier, double end) {
        return new Outcome(id, arrival, Outcome.Status.TIMEOUT, tier, null, null, Double.NaN, 100, 0, 10, 1, "ttfb",
                end);
    }

    static Replay.Result result(List<Outcome> outcomes, Outcome... retries) {
        Outcome[] byId = new Outcome[outcomes.size()];
        for (Outcome r : retries) {
            byId[r.id()] = r;
        }
        return new Replay.Result("p", outcomes, List.of("h"), List.of("haiku"), new double[] {0.1}, List.of(),
                Map.of(), 0, 0, outcomes.isEmpty() ? 0 : outcomes.get(outcomes.size() - 1).arrival(),
                Arrays.asList(byId));
    }

    @Test
    void nearestRankPercentiles() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(Metrics.percentile(sorted, 0.5)).isEqualTo(5);
        assertThat(Metrics.percentile(sorted, 0.99)).isEqualTo(10);
        assertThat(Metrics.percentile(sorted, 0.0)).isEqualTo(1);
        assertThat(Metrics.percentile(new double[0], 0.5)).isNaN();
    }

    @Test
    void populationVariance() {
        assertThat(Metrics.variance(new double[] {0.2, 0.4, 0.6})).isCloseTo(0.08 / 3, within(1e-12));
        assertThat(Metrics.variance(new double[] {0.5, 0.5})).isZero();
    }

    @Test
    void clientTtftChargesFailuresWithOneRetry() {
        // served on the first try: its own TTFT
        assertThat(Metrics.clientTtft(ok(0, 10, "opus", 1.5), null, POLICY)).isEqualTo(1.5);
        // first try timed out at 8 s, retry 0.5 s later served after 2 s: 8.5 + 2
        Outcome first = timeout(1, 10, "opus", 18);
        Outcome retry = ok(1, 18.5, "opus", 2.0);
        assertThat(Metrics.clientTtft(first, retry, POLICY)).isCloseTo(10.5, within(1e-9));
        // failed twice: the decided tier's first-byte deadline (opus 120 s) ...
        Outcome retryFailed = timeout(1, 18.5, "opus", 26.5);
        assertThat(Metrics.clientTtft(first, retryFailed, POLICY)).isEqualTo(120.0);
        // ... or the time the client gave up when later than that
        Outcome lateFailure = timeout(1, 18.5, "haiku", 45);
        assertThat(Metrics.clientTtft(timeout(1, 10, "haiku", 18), lateFailure, POLICY)).isEqualTo(35.0);
        // a stream cut after its first token keeps that TTFT and is not retried
        Outcome cut = new Outcome(2, 0, Outcome.Status.CUT, "sonnet", "sonnet", "s", 0.2, 0, 0, 10, 1, "cut", 3);
        assertThat(cut.retryable()).isFalse();
        assertThat(first.retryable()).isTrue();
        assertThat(Metrics.clientTtft(cut, null, POLICY)).isEqualTo(0.2);
    }

    @Test
    void summaryCountsFailuresTokenWeightedHitsTierMixAndCost() {
        List<Outcome> outcomes = List.of(
                new Outcome(0, 0, Outcome.Status.OK, "haiku", "haiku", "h", 0.1, 1000, 500, 100, 1, null, 1),
                new Outcome(1, 1, Outcome.Status.OK, "opus", "sonnet", "s", 0.3, 3000, 0, 10, 2, null, 2),
                new Outcome(2, 2, Outcome.Status.TIMEOUT, "opus", null, null, Double.NaN, 500, 0, 10, 1, "ttfb", 10),
                new Outcome(3, 3, Outcome.Status.CUT, "sonnet", "sonnet", "s", 0.2, 0, 0, 10, 1, "stream_cut", 4));
        Outcome retry = new Outcome(2, 10.5, Outcome.Status.OK, "opus", "opus", "o", 1.0, 500, 0, 10, 1, null, 12);
        Replay.Result result = new Replay.Result("p", outcomes, List.of("h", "s"), List.of("haiku", "sonnet"),
                new double[] {0.2, 0.6}, List.of(), Map.of(), 0, 0, 3, Arrays.asList(null, null, retry, null));
        Metrics.Summary s = Metrics.summarise(result, Pricing.listPrices(), POLICY);
        assertThat(s.ok()).isEqualTo(2);
        assertThat(s.failed()).isEqualTo(2);
        assertThat(s.failureRate()).isEqualTo(0.5);
        assertThat(s.timeouts()).isEqualTo(1);
        assertThat(s.cut()).isEqualTo(1);
        assertThat(s.retried()).isEqualTo(1);
        assertThat(s.failedAfterRetry()).isZero();
        assertThat(s.cacheHitRate()).isCloseTo(500.0 / 4000, within(1e-12));
        assertThat(s.ttftP50()).isEqualTo(0.2);
        assertThat(s.ttftP99()).isEqualTo(0.3);
        assertThat(s.ttftP99AllRequests()).isInfinite();
        // client TTFTs: 0.1, 0.3, 8.5 + 1.0, 0.2
        assertThat(s.clientTtftP99()).isCloseTo(9.5, within(1e-9));
        assertThat(s.clientTtftP50()).isEqualTo(0.2);
        assertThat(s.utilVariance()).isCloseTo(0.04, within(1e-12));
        assertThat(s.servedTierMix()).containsEntry("haiku", 1 / 3.0).containsEntry("sonnet", 2 / 3.0)
                .containsEntry("opus", 0.0);
        double cost = (1000 * 1.0 + 100 * 5.0) / 1e6 + (3000 * 3.0 + 10 * 15.0) / 1e6 + (500 * 15.0 + 10 * 75.0) / 1e6;
        assertThat(s.costPer1000()).isCloseTo(cost / 4 * 1000, within(1e-12));
    }

    @Test
    void aPolicyThatFailsMoreThanOnePercentHasAnInfiniteP99ButAFiniteClientP99() {
        List<Outcome> outcomes = new java.util.ArrayList<>();
        for (int i = 0; i < 98; i++) {
            outcomes.add(ok(i, i, "sonnet", 0.5));
        }
        outcomes.add(timeout(98, 98, "sonnet", 102));
        outcomes.add(timeout(99, 99, "sonnet", 103));
        Metrics.Summary s = Metrics.summarise(result(outcomes, timeout(98, 102.5, "sonnet", 106.5)), Pricing.listPrices(),
                POLICY);
        assertThat(s.ttftP99()).isEqualTo(0.5);
        assertThat(s.ttftP99AllRequests()).isInfinite();
        assertThat(s.failedAfterRetry()).isEqualTo(1);
        // request 99 was never retried (no retry outcome): charged the sonnet deadline, as is 98 (failed twice)
        assertThat(s.clientTtftP99()).isEqualTo(60.0);
    }

    @Test
    void timelineWindowsByArrival() {
        List<Outcome> outcomes = List.of(ok(0, 1, "haiku", 0.1), ok(1, 2, "haiku", 0.5), timeout(2, 12, "haiku", 14));
        Replay.Result result = result(outcomes, ok(2, 14.5, "haiku", 0.5));
        List<Metrics.Window> windows = Metrics.timeline(result, 10, POLICY);
        assertThat(windows).hasSize(2);
        assertThat(windows.get(0).served()).isEqualTo(2);
        assertThat(windows.get(0).p99()).isEqualTo(0.5);
        assertThat(windows.get(0).clientP99()).isEqualTo(0.5);
        assertThat(windows.get(1).failed()).isEqualTo(1);
        assertThat(windows.get(1).p99()).isNaN();
        assertThat(windows.get(1).clientP99()).isCloseTo(3.0, within(1e-9));
    }
}
