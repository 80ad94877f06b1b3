package dev.zerolayer.bench.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fit ranks positives first, lands anchors near their targets, keeps signs, and is deterministic. */
class LogisticFitTest {

    private static final double[][] ANCHORS = {{0, 0}, {1, 0}};
    private static final double[] TARGETS = {0.2, 0.8};

    private static double[][] rows(Random random, boolean[] labels) {
        double[][] x = new double[labels.length][2];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = random.nextBoolean();
            x[i][0] = labels[i] ? 0.6 + 0.4 * random.nextDouble() : 0.4 * random.nextDouble();
            x[i][1] = random.nextDouble();
        }
        return x;
    }

    @Test
    void learnsTheInformativeFeatureAndTheAnchorLevels() {
        boolean[] y = new boolean[200];
        double[][] x = rows(new Random(1), y);
        LogisticFit.Fitted fit = LogisticFit.ranking(x, y, ANCHORS, TARGETS, 3.0, 0.001, new double[2],
                new int[] {0, 0}, 3000, 0.5);
        assertThat(fit.weights()[0]).isGreaterThan(1.0);
        assertThat(Math.abs(fit.weights()[1])).isLessThan(0.5);
        assertThat(LogisticFit.predict(fit.intercept(), fit.weights(), ANCHORS[0])).isLessThan(0.4);
        assertThat(fit.gradientNorm()).isLessThan(1e-3);
    }

    @Test
    void keepsEachWeightOnItsDesignedSide() {
        boolean[] y = new boolean[200];
        double[][] x = rows(new Random(2), y);
        LogisticFit.Fitted fit = LogisticFit.ranking(x, y, ANCHORS, TARGETS, 1.0, 0.001, new double[2],
                new int[] {-1, 1}, 2000, 0.5);
        assertThat(fit.weights()[0]).isLessThanOrEqualTo(0.0);
        assertThat(fit.weights()[1]).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void isDeterministic() {
        boolean[] y = new boolean[100];
        double[][] x = rows(new Random(3), y);
        LogisticFit.Fitted a = LogisticFit.ranking(x, y, ANCHORS, TARGETS, 3.0, 0.002, new double[] {1, 1},
                new int[] {0, 0}, 500, 0.5);
        LogisticFit.Fitted b = LogisticFit.ranking(x, y, ANCHORS, TARGETS, 3.0, 0.002, new double[] {1, 1},
                new int[] {0, 0}, 500, 0.5);
        assertThat(a.weights()).containsExactly(b.weights());
        assertThat(a.intercept()).isEqualTo(b.intercept());
    }
}
