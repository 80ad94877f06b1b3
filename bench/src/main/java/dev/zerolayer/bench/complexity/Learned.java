package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.HashedNgrams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The learned model's form: σ(intercept + ngramWeight × n-gram regression + lexicalWeight × lexical logit +
 * easyWeight × easy-traffic logit). The first three are fitted by logistic regression of "the strong answer is
 * better" on the out-of-fold regressions. The easy-traffic logit is the lexical model's terms of the features that
 * mark a simple request (designed direction −1: chit-chat, plain, lookup, summary); the labelled sets hold no such
 * traffic, so its weight is fitted on the calibration anchors alone. {@code outOfFold} are the scores when the
 * stacking too is fitted without each fold.
 */
record Learned(double intercept, double ngramWeight, double lexicalWeight, double easyWeight,
        double[] outOfFold) {

    static Learned stack(List<ComplexityExperiment.Row> rows, double[] regression, double[] lexicalLogit, double[] easyLogit,
            double[] gap, int[] fold, double[][] anchorInputs, double[] anchorEasy, double[] anchorTargets,
            double anchorWeight) {
        double[] outOfFold = new double[rows.size()];
        for (int f = 0; f < ComplexityExperiment.FOLDS; f++) {
            double[] fitted = stackFit(regression, lexicalLogit, gap, fold, f, anchorInputs, anchorTargets,
                    anchorWeight);
            double easy = easyFit(fitted, anchorInputs, anchorEasy, anchorTargets);
            for (int i = 0; i < rows.size(); i++) {
                if (fold[i] == f) {
                    outOfFold[i] = LogisticFit.sigmoid(fitted[0] + fitted[1] * regression[i]
                            + fitted[2] * lexicalLogit[i] + easy * easyLogit[i]);
                }
            }
        }
        double[] all = stackFit(regression, lexicalLogit, gap, fold, -1, anchorInputs, anchorTargets,
                anchorWeight);
        return new Learned(all[0], all[1], all[2], easyFit(all, anchorInputs, anchorEasy, anchorTargets),
                outOfFold);
    }

    /** The stacked logit (before the sigmoid and the score map) of one prompt's three inputs. */
    double stackedLogit(double regression, double lexicalLogit, double easyLogit) {
        return intercept + ngramWeight * regression + lexicalWeight * lexicalLogit + easyWeight * easyLogit;
    }

    /**
     * The weight of the easy-traffic logit relative to the stacked logit that best ranks the anchors: a logistic
     * fit σ(α + β × stacked logit + δ × easy-traffic logit) to the anchors' bands as soft targets gives δ / β (at
     * least 0); the score map then puts the result on the bands' scale.
     */
    private static double easyFit(double[] fitted, double[][] anchorInputs, double[] anchorEasy,
            double[] anchorTargets) {
        int n = anchorInputs.length;
        double[] stacked = new double[n];
        for (int k = 0; k < n; k++) {
            stacked[k] = fitted[0] + fitted[1] * anchorInputs[k][0] + fitted[2] * anchorInputs[k][1];
        }
        double[] w = new double[3];
        for (int iteration = 0; iteration < 20_000; iteration++) {
            double[] gradient = new double[3];
            for (int k = 0; k < n; k++) {
                double error = (LogisticFit.sigmoid(w[0] + w[1] * stacked[k] + w[2] * anchorEasy[k])
                        - anchorTargets[k]) / n;
                gradient[0] += error;
                gradient[1] += error * stacked[k];
                gradient[2] += error * anchorEasy[k];
            }
            for (int j = 0; j < 3; j++) {
                w[j] -= 0.5 * gradient[j];
            }
        }
        return w[1] <= 0 ? 0 : Math.max(0, w[2] / w[1]);
    }

    /** Intercept and two weights by gradient descent on the weighted cross-entropy (soft targets allowed). */
    private static double[] stackFit(double[] regression, double[] lexicalLogit, double[] gap, int[] fold,
            int without, double[][] anchorInputs, double[] anchorTargets, double anchorWeight) {
        List<double[]> x = new ArrayList<>();
        List<double[]> targetAndWeight = new ArrayList<>();
        int labelled = 0;
        for (int i = 0; i < regression.length; i++) {
            labelled += fold[i] != without ? 1 : 0;
        }
        for (int i = 0; i < regression.length; i++) {
            if (fold[i] != without) {
                x.add(new double[] {regression[i], lexicalLogit[i]});
                targetAndWeight.add(new double[] {gap[i] > 0 ? 1 : 0, 1.0 / labelled});
            }
        }
        for (int k = 0; anchorWeight > 0 && k < anchorInputs.length; k++) {
            x.add(anchorInputs[k]);
            targetAndWeight.add(new double[] {anchorTargets[k], anchorWeight / anchorInputs.length});
        }
        double[] mean = new double[2];
        double[] sd = new double[2];
        for (double[] row : x) {
            for (int j = 0; j < 2; j++) {
                mean[j] += row[j] / x.size();
            }
        }
        for (double[] row : x) {
            for (int j = 0; j < 2; j++) {
                sd[j] += (row[j] - mean[j]) * (row[j] - mean[j]) / x.size();
            }
        }
        for (int j = 0; j < 2; j++) {
            sd[j] = Math.sqrt(sd[j]) + 1e-12;
        }
        double total = 0;
        for (double[] tw : targetAndWeight) {
            total += tw[1];
        }
        double[] w = new double[3];
        for (int iteration = 0; iteration < 4_000; iteration++) {
            double[] gradient = new double[3];
            for (int i = 0; i < x.size(); i++) {
                double z0 = (x.get(i)[0] - mean[0]) / sd[0];
                double z1 = (x.get(i)[1] - mean[1]) / sd[1];
                double error = (LogisticFit.sigmoid(w[0] + w[1] * z0 + w[2] * z1) - targetAndWeight.get(i)[0])
                        * targetAndWeight.get(i)[1] / total;
                gradient[0] += error;
                gradient[1] += error * z0;
                gradient[2] += error * z1;
            }
            for (int j = 0; j < 3; j++) {
                w[j] -= 2.0 * gradient[j];
            }
        }
        double b = w[1] / sd[0];
        double c = w[2] / sd[1];
        return new double[] {w[0] - b * mean[0] - c * mean[1], b, c};
    }

    /** The served model: the lexical weights and the n-gram buckets scaled by the stacking, one intercept. */
    ComplexityModel model(double[] ngramFit, int bits, ComplexityModel lexical, String version) {
        int dimension = ngramFit.length - 1;
        double[] buckets = new double[dimension];
        for (int k = 0; k < dimension; k++) {
            buckets[k] = ngramWeight * ngramFit[k];
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        lexical.weights().forEach((feature, weight) -> weights.put(feature, (ComplexityExperiment.easy(feature)
                ? lexicalWeight + easyWeight : lexicalWeight) * weight));
        double combined = intercept + ngramWeight * ngramFit[dimension] + lexicalWeight * lexical.intercept();
        return new ComplexityModel(version, java.time.Instant.parse("2026-12-02T00:00:00Z"), 1, version,
                lexical.tokenizerEncoding(), combined, weights,
                ComplexityModel.Ngrams.quantised(HashedNgrams.ENCODER, bits, buckets));
    }
}
