package dev.zerolayer.routing.ttft;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Learns each node's {@link TtftModel} online from observed time to first byte versus what the router saw when it
 * decided (requests ahead, uncached tokens, busy share): a per-node recursive least-squares regression with forgetting,
 * started from the node's hardware prior. Thread-safe: an observation updates its node under that node's lock and
 * publishes an immutable snapshot; {@link #model} reads the snapshot without locking.
 */
public final class TtftPredictor {

    /** Forgetting factor: an observation's weight halves after about 350 newer ones. */
    static final double FORGET = 0.998;
    /** Prior variances of the coefficients over the observation noise (ms^2 / ms^2): how far the prior may move. */
    static final double[] PRIOR_VARIANCE = {0.25, 6.25, 0.25, 1.0};
    /** Forgetting stops while the covariance's trace is above this multiple of the prior's (no wind-up when idle). */
    static final double WINDUP_LIMIT = 10.0;

    private final Map<String, Regression> nodes = new ConcurrentHashMap<>();
    private final TtftModel fallbackPrior;

    /** Nodes registered without a prior start from {@code fallbackPrior}. */
    public TtftPredictor(TtftModel fallbackPrior) {
        this.fallbackPrior = fallbackPrior;
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
        return regression == null ? fallbackPrior : regression.snapshot;
    }

    /** Observations the node's model has learned from. */
    public long observations(String nodeId) {
        Regression regression = nodes.get(nodeId);
        return regression == null ? 0 : regression.count;
    }

    /**
     * Learns from one request: what the router saw when it sent it and the TTFB it observed.
     *
     * @return the TTFT the model predicted for it before this update (ms), for error metrics
     */
    public double observe(String nodeId, double queued, int uncachedTokens, double loadShare, double observedMs) {
        Regression regression = nodes.computeIfAbsent(nodeId, id -> new Regression(fallbackPrior));
        return regression.update(queued, uncachedTokens / 1000.0, loadShare, observedMs);
    }

    /** Recursive least squares over x = [1, queued, uncached k-tokens, load share]. */
    private static final class Regression {
        private final double[] theta;
        private final double[][] p = new double[4][4];
        private final double priorTrace;
        private final double[] x = new double[4];
        private final double[] px = new double[4];
        private volatile TtftModel snapshot;
        private volatile long count;

        Regression(TtftModel prior) {
            theta = prior.vector();
            double trace = 0;
            for (int i = 0; i < 4; i++) {
                p[i][i] = PRIOR_VARIANCE[i];
                trace += PRIOR_VARIANCE[i];
            }
            priorTrace = trace;
            snapshot = prior;
        }

        synchronized double update(double queued, double kiloTokens, double loadShare, double observedMs) {
            if (!Double.isFinite(observedMs) || observedMs < 0 || !Double.isFinite(queued)
                    || !Double.isFinite(kiloTokens) || !Double.isFinite(loadShare)) {
                return snapshot.predictMs(queued, (int) Math.round(kiloTokens * 1000), loadShare);
            }
            x[0] = 1;
            x[1] = queued;
            x[2] = kiloTokens;
            x[3] = loadShare;
            double predicted = snapshot.predictMs(queued, (int) Math.round(kiloTokens * 1000), loadShare);
            double denominator = FORGET;
            for (int i = 0; i < 4; i++) {
                double sum = 0;
                for (int j = 0; j < 4; j++) {
                    sum += p[i][j] * x[j];
                }
                px[i] = sum;
                denominator += x[i] * sum;
            }
            double raw = theta[0] + theta[1] * queued + theta[2] * kiloTokens + theta[3] * loadShare;
            double error = observedMs - raw;
            double trace = 0;
            for (int i = 0; i < 4; i++) {
                theta[i] += px[i] / denominator * error;
            }
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    p[i][j] -= px[i] * px[j] / denominator;
                }
                trace += p[i][i];
            }
            double forget = trace < WINDUP_LIMIT * priorTrace ? FORGET : 1.0;
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    p[i][j] /= forget;
                }
            }
            // coefficients are times: none below 0, so a noisy start cannot make load look free
            snapshot = new TtftModel(Math.max(0, theta[0]), Math.max(0, theta[1]), Math.max(0, theta[2]),
                    Math.max(0, theta[3]));
            count++;
            return predicted;
        }
    }
}
