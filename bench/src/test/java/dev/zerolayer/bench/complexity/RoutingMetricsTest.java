package dev.zerolayer.bench.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.bench.complexity.RoutingMetrics.Result;
import org.junit.jupiter.api.Test;

/** AUC, APGR and CPT on hand-checkable cases; the random router averages to APGR ≈ 0.5. */
class RoutingMetricsTest {

    // four prompts: two only the strong model gets right (gain 1), one both get right, one both get wrong
    private static final boolean[] WEAK = {false, false, true, false};
    private static final boolean[] STRONG = {true, true, true, false};

    @Test
    void aPerfectOrderRecoversTheGapWithTheFewestStrongCalls() {
        Result r = RoutingMetrics.evaluate(new double[] {0.9, 0.8, 0.1, 0.2}, WEAK, STRONG);
        assertThat(r.auc()).isEqualTo(1.0);
        assertThat(r.weakAccuracy()).isEqualTo(0.25);
        assertThat(r.strongAccuracy()).isEqualTo(0.75);
        // PGR at 0, 1/4, 2/4, 3/4, 1 = 0, 0.5, 1, 1, 1 → trapezoid area = (0.25 + 0.75 + 1 + 1) / 4 = 0.75
        assertThat(r.apgr()).isCloseTo(0.75, within(1e-12));
        assertThat(r.cpt50()).isEqualTo(0.25);
        assertThat(r.cpt80()).isEqualTo(0.5);
    }

    @Test
    void theWorstOrderRecoversTheGapLast() {
        Result r = RoutingMetrics.evaluate(new double[] {0.1, 0.2, 0.9, 0.8}, WEAK, STRONG);
        assertThat(r.auc()).isEqualTo(0.0);
        // PGR = 0, 0, 0, 0.5, 1 → area = (0 + 0 + 0.25 + 0.75) / 4 = 0.25
        assertThat(r.apgr()).isCloseTo(0.25, within(1e-12));
        assertThat(r.cpt50()).isEqualTo(0.75);
        assertThat(r.cpt80()).isEqualTo(1.0);
    }

    @Test
    void tiedScoresCountAsEveryOrderOnAverage() {
        Result r = RoutingMetrics.evaluate(new double[] {0.5, 0.5, 0.5, 0.5}, WEAK, STRONG);
        assertThat(r.auc()).isEqualTo(0.5);
        assertThat(r.apgr()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void theRandomRouterAveragesToOneHalf() {
        boolean[] weak = new boolean[200];
        boolean[] strong = new boolean[200];
        for (int i = 0; i < 200; i++) {
            weak[i] = i % 3 == 0;
            strong[i] = i % 3 == 0 || i % 2 == 0;
        }
        Result r = RoutingMetrics.random(weak, strong, 500, 7);
        assertThat(r.apgr()).isCloseTo(0.5, within(0.02));
        assertThat(r.auc()).isCloseTo(0.5, within(0.02));
        assertThat(r.cpt50()).isCloseTo(0.5, within(0.05));
    }

    @Test
    void aucCountsTiesAsHalf() {
        assertThat(RoutingMetrics.auc(new double[] {1, 1, 0}, new boolean[] {true, false, false})).isEqualTo(0.75);
        assertThat(RoutingMetrics.auc(new double[] {1, 2}, new boolean[] {true, true})).isNaN();
    }

    @Test
    void gradedAnswersWeighEachPromptByHowMuchBetterTheStrongAnswerIs() {
        // grades scaled to [0,1]: prompt 0 gains 0.6, prompt 1 gains 0.2, prompt 2 loses 0.2 with the strong model
        double[] weak = {0.2, 0.6, 0.9};
        double[] strong = {0.8, 0.8, 0.7};

        Result best = RoutingMetrics.evaluate(new double[] {0.9, 0.5, 0.1}, weak, strong);
        Result worst = RoutingMetrics.evaluate(new double[] {0.1, 0.5, 0.9}, weak, strong);

        // gap 0.6; PGR at 0, 1/3, 2/3, 1 = 0, 1, 4/3, 1 → area = (0.5 + 7/6 + 7/6) / 3
        assertThat(best.apgr()).isCloseTo((0.5 + 7.0 / 6 + 7.0 / 6) / 3, within(1e-12));
        assertThat(best.needsStrong()).isEqualTo(2);
        assertThat(best.auc()).isEqualTo(1.0);
        assertThat(worst.apgr()).isLessThan(best.apgr());
        assertThat(RoutingMetrics.evaluate(new double[] {1, 0}, new boolean[] {false, true},
                new boolean[] {true, true}).apgr()).as("booleans are the 0/1 grades").isCloseTo(0.75, within(1e-12));
    }
}
