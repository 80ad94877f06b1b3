package dev.zerolayer.routing.ttft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The per-node TTFT regression: starts from its prior, learns a node's real rates, keeps nodes apart, and goes back to
 * its prior once it has learned nothing for a while.
 */
class TtftPredictorTest {

    @Test
    void aModelWithoutObservationsForLongerThanTheStaleTimeStartsAgainFromItsPrior() {
        TtftModel prior = TtftModel.prior(25, 5_000, 32, 6_400);
        long[] now = {0};
        TtftPredictor predictor = new TtftPredictor(TtftModel.generic(), () -> now[0], 30_000_000_000L);
        predictor.register("slow", prior);

        // Given a node learned slow: 300 ms more before every first token
        for (int i = 0; i < 200; i++) {
            now[0] += 100_000_000L;
            predictor.observe("slow", 0, 1_000, 0, 0, 0, 25 + 200 + 300);
        }
        assertThat(predictor.model("slow").predictMs(0, 1_000, 0, 0, 0)).isCloseTo(525, within(30.0));

        // When 30 s pass without an answer from it, its model is still what it learned
        now[0] += 30_000_000_000L;
        assertThat(predictor.model("slow").predictMs(0, 1_000, 0, 0, 0)).isCloseTo(525, within(30.0));

        // Then past them it is its prior again, and learns afresh from the next answers
        now[0] += 1;
        assertThat(predictor.model("slow")).isEqualTo(prior);
        for (int i = 0; i < 50; i++) {
            now[0] += 100_000_000L;
            predictor.observe("slow", 0, 1_000, 0, 0, 0, 25 + 200 + 300);
        }
        assertThat(predictor.model("slow").predictMs(0, 1_000, 0, 0, 0)).isGreaterThan(400);
        assertThat(predictor.observations("slow")).isEqualTo(250);
    }

    @Test
    void aNewNodePredictsFromItsHardwarePrior() {
        TtftModel prior = TtftModel.prior(25, 5_000, 32, 6_400);
        TtftPredictor predictor = new TtftPredictor();
        predictor.register("opus-1", prior);

        // 25 ms + 2 ahead x 25 ms + (2,000 own + 1,000 pending tokens) at 5,000/s + 1 over the slots x 200 ms
        assertThat(predictor.model("opus-1").predictMs(2, 2_000, 1_000, 1, 0)).isCloseTo(875, within(1e-9));
        assertThat(predictor.model("unknown")).isEqualTo(TtftModel.generic());
        assertThat(predictor.observations("opus-1")).isZero();
    }

    @Test
    void learnsANodesTrueRatesFromObservationsAndTheErrorShrinks() {
        // Given a node whose prior is 2x too optimistic about prefill and ignores its queue
        TtftPredictor predictor = new TtftPredictor();
        predictor.register("n", new TtftModel(10, 0, 100, 100, 0, 0));
        Random random = new Random(7);
        double firstErrors = 0;
        double lastErrors = 0;
        for (int i = 0; i < 2_000; i++) {
            int queued = random.nextInt(6);
            int uncached = random.nextInt(4_000);
            long pending = queued * (long) random.nextInt(2_000);
            int slotWait = random.nextInt(10) < 8 ? 0 : random.nextInt(3);
            double load = random.nextDouble();
            double truth = 30 + 15.0 * queued + 200.0 * uncached / 1000 + 200.0 * pending / 1000 + 300 * slotWait
                    + 80 * load;
            double observed = truth + random.nextGaussian() * 20;
            double predicted = predictor.observe("n", queued, uncached, pending, slotWait, load, observed);
            if (i < 100) {
                firstErrors += Math.abs(predicted - truth);
            } else if (i >= 1_900) {
                lastErrors += Math.abs(predicted - truth);
            }
        }
        TtftModel learned = predictor.model("n");
        assertThat(learned.msPerKiloToken()).isCloseTo(200, within(10.0));
        assertThat(learned.msPerPendingKiloToken()).isCloseTo(200, within(10.0));
        assertThat(learned.msPerSlotWait()).isCloseTo(300, within(15.0));
        assertThat(learned.msPerQueued()).isCloseTo(15, within(10.0));
        assertThat(learned.baseMs() + learned.msPerLoad() * 0.5).isCloseTo(70, within(15.0));
        assertThat(lastErrors / 100).isLessThan(10).isLessThan(firstErrors / 100 / 5);
        assertThat(predictor.observations("n")).isEqualTo(2_000);
    }

    @Test
    void eachNodeLearnsOnItsOwnAndCoefficientsNeverGoNegative() {
        TtftPredictor predictor = new TtftPredictor();
        predictor.register("fast", new TtftModel(10, 10, 100, 100, 50, 0));
        predictor.register("slow", new TtftModel(10, 10, 100, 100, 50, 0));
        for (int i = 0; i < 500; i++) {
            int uncached = (i * 37) % 3_000;
            predictor.observe("slow", 0, uncached, 0, 0, 0, 10 + 400.0 * uncached / 1000);
            predictor.observe("fast", 0, uncached, 0, 0, 0, 5.0);
        }
        assertThat(predictor.model("slow").predictMs(0, 2_000, 0, 0, 0)).isCloseTo(810, within(20.0));
        assertThat(predictor.model("fast").predictMs(0, 2_000, 0, 0, 0)).isLessThan(20);
        TtftModel fast = predictor.model("fast");
        assertThat(List.of(fast.baseMs(), fast.msPerQueued(), fast.msPerKiloToken(), fast.msPerPendingKiloToken(),
                fast.msPerSlotWait(), fast.msPerLoad())).allMatch(c -> c >= 0);
    }

    @Test
    void aBadObservationIsIgnoredAndRegisteringTwiceKeepsWhatWasLearned() {
        TtftPredictor predictor = new TtftPredictor();
        predictor.register("n", new TtftModel(10, 50, 100, 100, 50, 0));
        predictor.observe("n", 0, 1_000, 0, 0, 0, Double.NaN);
        predictor.observe("n", 0, 1_000, 0, 0, 0, -5);
        assertThat(predictor.observations("n")).isZero();
        predictor.observe("n", 0, 1_000, 0, 0, 0, 500);
        TtftModel learned = predictor.model("n");
        predictor.register("n", new TtftModel(1, 1, 1, 1, 1, 1));
        assertThat(predictor.model("n")).isSameAs(learned);
    }

    @Test
    void concurrentObserversLoseNoObservation() throws Exception {
        TtftPredictor predictor = new TtftPredictor();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            pool.execute(() -> {
                for (int i = 0; i < 1_000; i++) {
                    predictor.observe("shared", i % 3, 1_000, 0, 0, 0.5, 200);
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        assertThat(predictor.observations("shared")).isEqualTo(4_000);
        assertThat(predictor.model("shared").predictMs(1, 1_000, 0, 0, 0.5)).isCloseTo(200, within(5.0));
    }
}
