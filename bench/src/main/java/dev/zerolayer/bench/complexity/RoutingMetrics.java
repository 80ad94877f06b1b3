package dev.zerolayer.bench.complexity;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * RouteLLM-style routing metrics of a score: the highest-scored share x of prompts goes to the strong model, the rest
 * to the weak one; PGR(x) = (accuracy(x) − weak accuracy) / (strong accuracy − weak accuracy); APGR is the area
 * under PGR over x ∈ [0,1] (trapezoid, one point per prompt, tied scores averaged over their orders); CPT(p) is the
 * smallest x with PGR ≥ p; AUC is for the label "needs strong" (only the strong model is right; graded: the strong
 * answer is better), ties counting half. Accuracy is an answer's quality in [0,1]: correct or not, or a scaled grade.
 */
public final class RoutingMetrics {

    private RoutingMetrics() {
    }

    /** The four numbers of one scored set. */
    public record Result(int size, int needsStrong, double weakAccuracy, double strongAccuracy, double auc,
            double apgr, double cpt50, double cpt80) {
    }

    public static Result evaluate(double[] scores, boolean[] weakCorrect, boolean[] strongCorrect) {
        return evaluate(scores, quality(weakCorrect), quality(strongCorrect));
    }

    /**
     * The metrics for graded answers: each prompt's weak and strong answer quality (a correct answer 1, a wrong one 0;
     * a graded one its grade scaled to [0,1]); "needs strong" is then "the strong answer is better".
     */
    public static Result evaluate(double[] scores, double[] weakQuality, double[] strongQuality) {
        int n = scores.length;
        if (n == 0 || weakQuality.length != n || strongQuality.length != n) {
            throw new IllegalArgumentException("need equally long, non-empty arrays");
        }
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -scores[i]));
        double weakTotal = 0;
        double strongTotal = 0;
        for (int i = 0; i < n; i++) {
            weakTotal += weakQuality[i];
            strongTotal += strongQuality[i];
        }
        // performance after sending the top k prompts to the strong model, k = 0..n (ties: expected value)
        double[] correct = new double[n + 1];
        correct[0] = weakTotal;
        int k = 0;
        while (k < n) {
            int end = k;
            double groupGain = 0;
            while (end < n && scores[order[end]] == scores[order[k]]) {
                int i = order[end];
                groupGain += strongQuality[i] - weakQuality[i];
                end++;
            }
            int m = end - k;
            for (int j = 1; j <= m; j++) {
                correct[k + j] = correct[k] + groupGain * j / m;
            }
            k = end;
        }
        double gap = strongTotal - weakTotal;
        double[] pgr = new double[n + 1];
        for (int j = 0; j <= n; j++) {
            pgr[j] = gap == 0 ? Double.NaN : (correct[j] - weakTotal) / gap;
        }
        double apgr = 0;
        for (int j = 0; j < n; j++) {
            apgr += (pgr[j] + pgr[j + 1]) / 2.0 / n;
        }
        boolean[] label = new boolean[n];
        int positives = 0;
        for (int i = 0; i < n; i++) {
            label[i] = strongQuality[i] > weakQuality[i];
            positives += label[i] ? 1 : 0;
        }
        return new Result(n, positives, weakTotal / n, strongTotal / n, auc(scores, label), apgr, cpt(pgr, 0.5),
                cpt(pgr, 0.8));
    }

    private static double[] quality(boolean[] correct) {
        double[] quality = new double[correct.length];
        for (int i = 0; i < correct.length; i++) {
            quality[i] = correct[i] ? 1 : 0;
        }
        return quality;
    }

    /** Mean of the metrics over {@code rounds} random orders (seeded): the random router. */
    public static Result random(boolean[] weakCorrect, boolean[] strongCorrect, int rounds, long seed) {
        return random(quality(weakCorrect), quality(strongCorrect), rounds, seed);
    }

    /** {@link #random(boolean[], boolean[], int, long)} for graded answers. */
    public static Result random(double[] weakQuality, double[] strongQuality, int rounds, long seed) {
        int n = weakQuality.length;
        Random random = new Random(seed);
        double auc = 0;
        double apgr = 0;
        double cpt50 = 0;
        double cpt80 = 0;
        Result last = null;
        for (int r = 0; r < rounds; r++) {
            double[] scores = new double[n];
            for (int i = 0; i < n; i++) {
                scores[i] = random.nextDouble();
            }
            last = evaluate(scores, weakQuality, strongQuality);
            auc += last.auc() / rounds;
            apgr += last.apgr() / rounds;
            cpt50 += last.cpt50() / rounds;
            cpt80 += last.cpt80() / rounds;
        }
        return new Result(n, last.needsStrong(), last.weakAccuracy(), last.strongAccuracy(), auc, apgr, cpt50, cpt80);
    }

    /** A percentile interval. */
    public record Interval(double low, double high) {
    }

    /**
     * 95 % percentile bootstrap intervals of AUC and APGR: {@code rounds} resamples (with replacement, seeded) of the
     * rows; index 0 is AUC, index 1 APGR.
     */
    public static Interval[] bootstrap(double[] scores, boolean[] weakCorrect, boolean[] strongCorrect, int rounds,
            long seed) {
        return bootstrap(scores, quality(weakCorrect), quality(strongCorrect), rounds, seed);
    }

    /** {@link #bootstrap(double[], boolean[], boolean[], int, long)} for graded answers. */
    public static Interval[] bootstrap(double[] scores, double[] weakQuality, double[] strongQuality, int rounds,
            long seed) {
        int n = scores.length;
        Random random = new Random(seed);
        double[] aucs = new double[rounds];
        double[] apgrs = new double[rounds];
        int kept = 0;
        for (int r = 0; r < rounds; r++) {
            double[] s = new double[n];
            double[] w = new double[n];
            double[] st = new double[n];
            for (int i = 0; i < n; i++) {
                int pick = random.nextInt(n);
                s[i] = scores[pick];
                w[i] = weakQuality[pick];
                st[i] = strongQuality[pick];
            }
            Result result = evaluate(s, w, st);
            if (Double.isNaN(result.auc()) || Double.isNaN(result.apgr())) {
                continue;
            }
            aucs[kept] = result.auc();
            apgrs[kept] = result.apgr();
            kept++;
        }
        return new Interval[] {percentiles(aucs, kept), percentiles(apgrs, kept)};
    }

    private static Interval percentiles(double[] values, int count) {
        double[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        return new Interval(sorted[(int) Math.floor(0.025 * (count - 1))], sorted[(int) Math.ceil(0.975 * (count - 1))]);
    }

    /** AUC of scores for a boolean label (Mann–Whitney, ties count half); NaN without both classes. */
    public static double auc(double[] scores, boolean[] label) {
        int n = scores.length;
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> scores[i]));
        double rankSumPositive = 0;
        int positives = 0;
        int k = 0;
        while (k < n) {
            int end = k;
            while (end < n && scores[order[end]] == scores[order[k]]) {
                end++;
            }
            double averageRank = (k + 1 + end) / 2.0;
            for (int j = k; j < end; j++) {
                if (label[order[j]]) {
                    rankSumPositive += averageRank;
                    positives++;
                }
            }
            k = end;
        }
        int negatives = n - positives;
        if (positives == 0 || negatives == 0) {
            return Double.NaN;
        }
        return (rankSumPositive - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }

    private static double cpt(double[] pgr, double target) {
        int n = pgr.length - 1;
        for (int j = 0; j <= n; j++) {
            if (pgr[j] >= target - 1e-12) {
                return (double) j / n;
            }
        }
        return 1.0;
    }
}
