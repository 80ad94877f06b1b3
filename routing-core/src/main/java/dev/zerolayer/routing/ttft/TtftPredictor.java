package dev.zerolayer.routing.ttft;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Learns each node's {@link TtftModel} online from observed time to first byte versus what the router saw when it
 * decided: a per-node recursive least-squares regression with forgetting, started from the node's hardware prior; a
 * model that has learned nothing for {@link #STALE_NANOS} starts again from its prior when read (a node once slow gets
 * traffic, and so evidence, again). Thread-safe: an observation updates its node under that node's lock and publishes
 * an immutable snapshot; {@link #model} reads the snapshot without locking.
 */
public final class TtftPredictor {

    /** Forgetting factor: an observation's weight halves after about 350 newer ones. */
    static final double FORGET = 0.998;
    /**
     * Prior variances of the coefficients over the observation noise's (noise std taken as 200 ms): base 100 ms, per
     * request ahead 100 ms, per 1,000 tokens 100 ms, per slot wait 500 ms, at full load 200 ms.
     */
    static final double[] PRIOR_VARIANCE = {0.25, 0.25, 0.25, 0.25, 6.25, 1.0};
    /** Forgetting stops while the covariance's trace is above this multiple of the prior's (no wind-up when idle). */
    static final double WINDUP_LIMIT = 10.0;

    /** How long a model keeps what it learned without a new observation: 30 s. */
    public static final long STALE_NANOS = 30_000_000_000L;

    private final Map<String, Regression> nodes = new ConcurrentHashMap<>();
    private final TtftModel fallbackPrior;
    private final LongSupplier nanoClock;
    private final long staleNanos;

    /**
     * @param fallbackPrior where nodes registered without a prior start
     * @param nanoClock     monotonic nanoseconds (System::nanoTime, or a replay's clock)
     * @param staleNanos    how long a model keeps what it learned without an observation
     */
    public TtftPredictor(TtftModel fallbackPrior, LongSupplier nanoClock, long staleNanos) {
        this.fallbackPrior = fallbackPrior;
        this.nanoClock = nanoClock;
        this.staleNanos = staleNanos;
    }

    /** Nodes registered without a prior start from {@code fallbackPrior}; models go stale after 30 s. */
    public TtftPredictor(TtftModel fallbackPrior) {
        this(fallbackPrior, System::nanoTime, STALE_NANOS);
    }

    public TtftPredictor() {
        this(TtftModel.generic());
    }

    /** Starts a node from a prior (its hardware profile's); a node already known keeps what it learned. */
    public void register(String nodeId, TtftModel prior) {
        nodes.computeIfAbsent(nodeId, id -> new Regression(prior == null ? fallbackPrior : prior));
    }

    /** The node's current model; the fallback prior for a node never registered nor observed. */
    public TtftModel model(String nodeId) {
        Regression regression = nodes.get(nodeId);
        return regression == null ? fallbackPrior : current(regression);
    }

    /** The node's current model, starting it from {@code prior} when it is new (no allocation once known). */
    public TtftModel model(String nodeId, TtftModel prior) {
        Regression regression = nodes.get(nodeId);
        if (regression == null) {
            register(nodeId, prior);
            regression = nodes.get(nodeId);
        }
        return current(regression);
    }

    private TtftModel current(Regression regression) {
        if (regression.learned && nanoClock.getAsLong() - regression.lastNanos > staleNanos) {
            regression.restart(nanoClock.getAsLong(), staleNanos);
        }
        return regression.snapshot;
    }

    /** Observations the node's model has learned from. */
    public long observations(String nodeId) {
        Regression regression = nodes.get(nodeId);
        return regression == null ? 0 : regression.count;
    }

    /**
     * Learns from one request: what the router saw when it sent it (the arguments of {@link TtftModel#predictMs}) and
     * the TTFB it observed; an observation that is not a finite time ≥ 0 is ignored.
     *
     * @return the TTFT the model predicted for it before this update (ms), for error metrics
     */
    public double observe(String nodeId, double queued, int uncachedTokens, long pendingTokens, double slotWait,
            double loadShare, double observedMs) {
        Regression regression = nodes.get(nodeId);
        if (regression == null) {
            register(nodeId, fallbackPrior);
            regression = nodes.get(nodeId);
        }
        return regression.update(queued, uncachedTokens, pendingTokens, slotWait, loadShare, observedMs,
                nanoClock.getAsLong());
    }

    /** Recursive least squares over x = [1, queued, uncached k-tokens, pending k-tokens, slot wait, load share]. */
    private static final class Regression {
        private static final int N = TtftModel.SIZE;
        private final TtftModel prior;
        private final double[] theta;
        private final double[][] p = new double[N][N];
        private final double priorTrace;
        private final double[] x = new double[N];
        private final double[] px = new double[N];
        private volatile TtftModel snapshot;
        private volatile long count;
        /** Whether the snapshot holds something learned since the prior (a restart clears it). */
        private volatile boolean learned;
        private volatile long lastNanos;

        Regression(TtftModel prior) {
            this.prior = prior;
            theta = prior.vector();
            double trace = 0;
            for (int i = 0; i < N; i++) {
                p[i][i] = PRIOR_VARIANCE[i];
                trace += PRIOR_VARIANCE[i];
            }
            priorTrace = trace;
            snapshot = prior;
        }

        /** Back to the prior, unless an observation came meanwhile. */
        synchronized void restart(long now, long staleNanos) {
            if (!learned || now - lastNanos <= staleNanos) {
                return;
            }
            double[] start = prior.vector();
            for (int i = 0; i < N; i++) {
                theta[i] = start[i];
                Arrays.fill(p[i], 0.0);
                p[i][i] = PRIOR_VARIANCE[i];
            }
            snapshot = prior;
            learned = false;
        }

        synchronized double update(double queued, int uncached, long pending, double slotWait, double loadShare,
                double observedMs, long now) {
            double predicted = snapshot.predictMs(queued, uncached, pending, slotWait, loadShare);
            if (!Double.isFinite(observedMs) || observedMs < 0 || !Double.isFinite(queued)
                    || !Double.isFinite(slotWait) || !Double.isFinite(loadShare)) {
                return predicted;
            }
            x[0] = 1;
            x[1] = queued;
            x[2] = uncached / 1000.0;
            x[3] = pending / 1000.0;
            x[4] = slotWait;
            x[5] = loadShare;
            double denominator = FORGET;
            double raw = 0;
            for (int i = 0; i < N; i++) {
                double sum = 0;
                for (int j = 0; j < N; j++) {
                    sum += p[i][j] * x[j];
                }
                px[i] = sum;
                denominator += x[i] * sum;
                raw += theta[i] * x[i];
            }
            double error = observedMs - raw;
            for (int i = 0; i < N; i++) {
                theta[i] += px[i] / denominator * error;
            }
            double trace = 0;
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    p[i][j] -= px[i] * px[j] / denominator;
                }
                trace += p[i][i];
            }
            if (trace < WINDUP_LIMIT * priorTrace) {
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        p[i][j] /= FORGET;
                    }
                }
            }
            snapshot = TtftModel.of(theta);
            count++;
            lastNanos = now;
            learned = true;
            return predicted;
        }
    }
}
