package dev.zerolayer.bench.complexity;

/**
 * Full-batch gradient descent (deterministic, from zero, Nesterov momentum) for the complexity model's weights:
 * (1 − a) × a logistic loss on the score difference of every (needs-strong, other) pair of labelled prompts — logistic
 * regression on pair differences, the surrogate of AUC, which leaves the intercept free — plus a × a soft-label
 * logistic loss on calibration anchors, which sets the intercept and the score bands (a = w / (1 + w) for anchor
 * weight w), plus L2 pulling the weights (not the intercept) towards a prior model — the hand-set weights, so a
 * feature the data says nothing about keeps its designed weight; each weight is kept on its feature's designed side
 * (projected gradient descent).
 */
final class LogisticFit {

    /** A fitted model in feature order, with the last objective value and the gradient norm reached. */
    record Fitted(double intercept, double[] weights, double loss, double gradientNorm) {
    }

    static final double MOMENTUM = 0.9;

    private LogisticFit() {
    }

    /**
     * @param x labelled feature rows; {@code y} true for needs-strong
     * @param anchors anchor feature rows; {@code targets} their target scores in (0,1)
     * @param anchorWeight weight of the mean anchor loss against the mean pair loss
     * @param l2 coefficient of ‖w‖²
     */
    static Fitted ranking(double[][] x, boolean[] y, double[][] anchors, double[] targets, double anchorWeight,
            double l2, double[] prior, int[] directions, int iterations, double learningRate) {
        int features = x.length > 0 ? x[0].length : anchors[0].length;
        int[] positives = indices(y, true);
        int[] negatives = indices(y, false);
        double pairs = (double) positives.length * negatives.length;
        double pairShare = 1.0 / (1.0 + anchorWeight);
        double anchorShare = anchorWeight / (1.0 + anchorWeight);
        double[] w = new double[features];
        double b = 0;
        double[] previousW = new double[features];
        double previousB = 0;
        double loss = 0;
        double norm = 0;
        double[] scores = new double[x.length];
        double[] coefficient = new double[x.length];
        double[] look = new double[features];
        for (int it = 0; it < iterations; it++) {
            // Nesterov momentum: the gradient at the look-ahead point, then a projected step
            double momentum = it == 0 ? 0.0 : MOMENTUM;
            for (int f = 0; f < features; f++) {
                look[f] = w[f] + momentum * (w[f] - previousW[f]);
            }
            double lookB = b + momentum * (b - previousB);
            double[] gradW = new double[features];
            double gradB = 0;
            loss = 0;
            if (pairs > 0) {
                for (int i = 0; i < x.length; i++) {
                    scores[i] = dot(look, x[i]);
                    coefficient[i] = 0;
                }
                for (int p : positives) {
                    for (int q : negatives) {
                        double margin = scores[p] - scores[q];
                        loss += pairShare * softplus(-margin) / pairs;
                        double g = -pairShare * sigmoid(-margin) / pairs;
                        coefficient[p] += g;
                        coefficient[q] -= g;
                    }
                }
                for (int i = 0; i < x.length; i++) {
                    if (coefficient[i] != 0) {
                        axpy(coefficient[i], x[i], gradW);
                    }
                }
            }
            for (int a = 0; a < anchors.length; a++) {
                double z = lookB + dot(look, anchors[a]);
                double t = targets[a];
                loss += anchorShare * (softplus(z) - t * z) / anchors.length;
                double g = anchorShare * (sigmoid(z) - t) / anchors.length;
                axpy(g, anchors[a], gradW);
                gradB += g;
            }
            norm = gradB * gradB;
            for (int f = 0; f < features; f++) {
                double offset = look[f] - prior[f];
                loss += l2 * offset * offset;
                gradW[f] += 2 * l2 * offset;
                boolean blocked = directions[f] > 0 && look[f] <= 0 && gradW[f] > 0
                        || directions[f] < 0 && look[f] >= 0 && gradW[f] < 0;
                norm += blocked ? 0 : gradW[f] * gradW[f];
            }
            System.arraycopy(w, 0, previousW, 0, features);
            previousB = b;
            for (int f = 0; f < features; f++) {
                w[f] = project(look[f] - learningRate * gradW[f], directions[f]);
            }
            b = lookB - learningRate * gradB;
        }
        return new Fitted(b, w, loss, Math.sqrt(norm));
    }

    /** Keeps a weight on its feature's designed side (projected gradient descent). */
    private static double project(double weight, int direction) {
        if (direction > 0) {
            return Math.max(0.0, weight);
        }
        if (direction < 0) {
            return Math.min(0.0, weight);
        }
        return weight;
    }

    /** Plain pointwise logistic regression of needs-strong on the features (the comparison fit). */
    static Fitted pointwise(double[][] x, boolean[] y, double l2, int iterations, double learningRate) {
        int features = x[0].length;
        double[] w = new double[features];
        double b = 0;
        double loss = 0;
        double norm = 0;
        for (int it = 0; it < iterations; it++) {
            double[] gradW = new double[features];
            double gradB = 0;
            loss = 0;
            for (int i = 0; i < x.length; i++) {
                double z = b + dot(w, x[i]);
                double t = y[i] ? 1 : 0;
                loss += (softplus(z) - t * z) / x.length;
                double g = (sigmoid(z) - t) / x.length;
                axpy(g, x[i], gradW);
                gradB += g;
            }
            norm = gradB * gradB;
            for (int f = 0; f < features; f++) {
                loss += l2 * w[f] * w[f];
                gradW[f] += 2 * l2 * w[f];
                norm += gradW[f] * gradW[f];
            }
            for (int f = 0; f < features; f++) {
                w[f] -= learningRate * gradW[f];
            }
            b -= learningRate * gradB;
        }
        return new Fitted(b, w, loss, Math.sqrt(norm));
    }

    static double predict(double intercept, double[] w, double[] x) {
        return sigmoid(intercept + dot(w, x));
    }

    private static int[] indices(boolean[] y, boolean value) {
        int count = 0;
        for (boolean v : y) {
            count += v == value ? 1 : 0;
        }
        int[] out = new int[count];
        int k = 0;
        for (int i = 0; i < y.length; i++) {
            if (y[i] == value) {
                out[k++] = i;
            }
        }
        return out;
    }

    private static double dot(double[] w, double[] x) {
        double s = 0;
        for (int f = 0; f < w.length; f++) {
            s += w[f] * x[f];
        }
        return s;
    }

    private static void axpy(double a, double[] x, double[] into) {
        for (int f = 0; f < x.length; f++) {
            into[f] += a * x[f];
        }
    }

    static double sigmoid(double z) {
        if (z >= 0) {
            return 1.0 / (1.0 + Math.exp(-z));
        }
        double e = Math.exp(z);
        return e / (1.0 + e);
    }

    private static double softplus(double z) {
        return z > 30 ? z : Math.log1p(Math.exp(z));
    }
}
