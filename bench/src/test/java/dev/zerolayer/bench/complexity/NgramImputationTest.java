package dev.zerolayer.bench.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fit recovers a linear relation from the rows it may use; the Latin share counts letters only. */
class NgramImputationTest {

    @Test
    void recoversALinearRelationFromTheRowsItMayUse() {
        Random random = new Random(7);
        double[][] features = new double[300][3];
        double[] regression = new double[300];
        boolean[] use = new boolean[300];
        for (int i = 0; i < features.length; i++) {
            for (int k = 0; k < 3; k++) {
                features[i][k] = random.nextDouble();
            }
            use[i] = i < 200;
            // the rows it may not use follow another relation: they must not pull the fit
            regression[i] = use[i] ? 0.5 + 2 * features[i][0] - features[i][2] : 10;
        }
        NgramImputation imputation = NgramImputation.fit(features, regression, use);
        assertThat(imputation.expected(new double[] {0.5, 0.3, 0.2})).isCloseTo(0.5 + 1 - 0.2, within(0.01));
        assertThat(imputation.expected(new double[] {0, 0, 1})).isCloseTo(-0.5, within(0.01));
    }

    @Test
    void latinShareCountsLettersOnly() {
        assertThat(NgramImputation.latinShare("Solve x + 2 = 5.")).isEqualTo(1.0);
        assertThat(NgramImputation.latinShare("求函数的极值")).isEqualTo(0.0);
        assertThat(NgramImputation.latinShare("求 f(x) 的极值")).isCloseTo(2.0 / 6, within(1e-9));
        assertThat(NgramImputation.latinShare("123 + 456 = 579")).isEqualTo(1.0);
    }
}
