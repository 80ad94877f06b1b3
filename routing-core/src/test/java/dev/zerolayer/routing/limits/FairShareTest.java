package dev.zerolayer.routing.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FairShareTest {

    @Test
    void aLoneReplicaOrOneWhosePeersAskNothingHasTheWholeLimit() {
        assertThat(FairShare.of(100, 500, new double[0])).isEqualTo(100);
        assertThat(FairShare.of(100, 500, new double[] {0, 0})).isEqualTo(100);
        // asking less than the limit: what it asks plus its part of what nobody asks for
        assertThat(FairShare.of(100, 30, new double[0])).isEqualTo(100);
        assertThat(FairShare.of(100, 30, new double[] {10})).isEqualTo(30 + 30);
    }

    @Test
    void replicasAskingMoreThanAnEqualPartSplitWhatTheModestOnesLeave() {
        // two replicas over the limit: half each
        assertThat(FairShare.of(100, 400, new double[] {90})).isEqualTo(50);
        // one modest replica gets what it asks; the two greedy ones split the rest
        assertThat(FairShare.of(100, 10, new double[] {200, 300})).isEqualTo(10);
        assertThat(FairShare.of(100, 200, new double[] {10, 300})).isEqualTo(45);
        // a replica that asks nothing while the others are over the limit gets nothing
        assertThat(FairShare.of(100, 0, new double[] {200, 300})).isZero();
    }

    @Test
    void thePartsOfAllReplicasSumToTheLimit() {
        SplittableRandom random = new SplittableRandom(20261204);
        for (int round = 0; round < 1_000; round++) {
            int replicas = 1 + random.nextInt(5);
            double limit = random.nextInt(1, 1_000);
            double[] demands = new double[replicas];
            for (int i = 0; i < replicas; i++) {
                demands[i] = random.nextInt(4) == 0 ? 0 : random.nextDouble(0, 2 * limit);
            }
            double sum = 0;
            for (int i = 0; i < replicas; i++) {
                double[] peers = new double[replicas - 1];
                for (int j = 0, k = 0; j < replicas; j++) {
                    if (j != i) {
                        peers[k++] = demands[j];
                    }
                }
                double part = FairShare.of(limit, demands[i], peers);
                assertThat(part).isBetween(0.0, limit);
                sum += part;
            }
            assertThat(sum).isCloseTo(limit, within(1e-6));
        }
    }

    @Test
    void negativeOrMissingDemandsAreRefused() {
        assertThatThrownBy(() -> FairShare.of(-1, 1, new double[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FairShare.of(10, Double.NaN, new double[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FairShare.of(10, 1, new double[] {-2})).isInstanceOf(IllegalArgumentException.class);
    }
}
