package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/** Monotone maps of a score onto the calibration anchors' bands: the isotonic fit, its held-out check, the served map. */
final class ScoreMaps {

    private ScoreMaps() {
    }

    /**
     * A monotone map of the score onto the seed's bands (isotonic regression of the anchors' bands on their scores,
     * interpolated between blocks): it keeps every ranking, so APGR is unchanged. How many anchors it puts within ±0.1
     * of their band, fitted on four fifths of the anchors and counted on the rest (seeded, 5 folds).
     */
    static String heldOut(Anchors anchors, double[] scores, boolean[] ruled) {
        int n = scores.length;
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            order.add(k);
        }
        Collections.shuffle(order, new Random(ComplexityExperiment.SEED));
        int within = 0;
        int counted = 0;
        double absError = 0;
        Map<String, double[]> byCategory = new LinkedHashMap<>();
        for (int f = 0; f < ComplexityExperiment.FOLDS; f++) {
            List<double[]> train = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                if (k % ComplexityExperiment.FOLDS != f && !ruled[order.get(k)]) {
                    int a = order.get(k);
                    train.add(new double[] {scores[a], anchors.all().get(a).target()});
                }
            }
            double[][] knots = isotonic(train);
            for (int k = f; k < n; k += ComplexityExperiment.FOLDS) {
                int a = order.get(k);
                if (ruled[a]) {
                    continue;
                }
                double mapped = interpolate(knots, scores[a]);
                double target = anchors.all().get(a).target();
                within += Math.abs(mapped - target) <= 0.1 ? 1 : 0;
                absError += Math.abs(mapped - target);
                counted++;
                double[] acc = byCategory.computeIfAbsent(anchors.all().get(a).category(), c -> new double[3]);
                acc[0] += target;
                acc[1] += mapped;
                acc[2]++;
            }
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nWith a monotone map fitted on the anchors "
                + "(5-fold over the anchors; the vague rule's anchors left to the rule): within ±0.1 of the band %d of "
                + "%d; mean |score − band| %.3f.%n%n| category | band | mean mapped score |%n|---|---|---|%n", within,
                counted, absError / counted));
        byCategory.forEach((category, acc) -> out.append(String.format(Locale.ROOT, "| %s | %.2f | %.3f |%n",
                category, acc[0] / acc[2], acc[1] / acc[2])));
        return out.toString();
    }

    /**
     * The served score map: the isotonic fit of the anchors' bands on their scores (all anchors), pinned at (0, 0) and
     * (1, 1) so that the map rises across the whole range and keeps every ranking.
     */
    static ComplexityModel.ScoreMap scoreMap(Anchors anchors, double[] scores, boolean[] ruled) {
        List<double[]> pairs = new ArrayList<>();
        for (int k = 0; k < scores.length; k++) {
            if (!ruled[k]) {
                pairs.add(new double[] {scores[k], anchors.all().get(k).target()});
            }
        }
        List<Double> from = new ArrayList<>(List.of(0.0));
        List<Double> to = new ArrayList<>(List.of(0.0));
        for (double[] knot : isotonic(pairs)) {
            double x = Math.round(knot[0] * 1e6) / 1e6;
            double y = Math.round(knot[1] * 1e6) / 1e6;
            if (x > from.get(from.size() - 1) && x < 1 && y > to.get(to.size() - 1)
                    && from.size() < ComplexityModel.ScoreMap.MAX_KNOTS - 1) {
                from.add(x);
                to.add(y);
            }
        }
        from.add(1.0);
        to.add(1.0);
        return new ComplexityModel.ScoreMap(from, to);
    }

    /** Pool-adjacent-violators on (score, target) pairs: knots (mean score, mean target) of non-decreasing blocks. */
    static double[][] isotonic(List<double[]> pairs) {
        List<double[]> sorted = new ArrayList<>(pairs);
        sorted.sort(java.util.Comparator.comparingDouble(p -> p[0]));
        List<double[]> blocks = new ArrayList<>(); // sum score, sum target, count
        for (double[] p : sorted) {
            blocks.add(new double[] {p[0], p[1], 1});
            while (blocks.size() > 1) {
                double[] last = blocks.get(blocks.size() - 1);
                double[] before = blocks.get(blocks.size() - 2);
                if (before[1] / before[2] <= last[1] / last[2]) {
                    break;
                }
                before[0] += last[0];
                before[1] += last[1];
                before[2] += last[2];
                blocks.remove(blocks.size() - 1);
            }
        }
        return blocks.stream().map(b -> new double[] {b[0] / b[2], b[1] / b[2]}).toArray(double[][]::new);
    }

    /** The knots' piecewise-linear function at {@code x}, flat beyond the first and last knot. */
    static double interpolate(double[][] knots, double x) {
        if (x <= knots[0][0]) {
            return knots[0][1];
        }
        for (int k = 1; k < knots.length; k++) {
            if (x <= knots[k][0]) {
                double t = (x - knots[k - 1][0]) / Math.max(1e-12, knots[k][0] - knots[k - 1][0]);
                return knots[k - 1][1] + t * (knots[k][1] - knots[k - 1][1]);
            }
        }
        return knots[knots.length - 1][1];
    }
}
