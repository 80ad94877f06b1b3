package dev.zerolayer.complexity.baseline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a set of scores in [0,1] spreads: a histogram of equal-width bins (the last one closed), percentiles by linear
 * interpolation between order statistics, mean, min and max.
 */
public record ScoreDistribution(int count, double mean, double min, double max, List<Bin> histogram,
        Map<String, Double> percentiles) {

    static final double[] PERCENTILES = {5, 10, 25, 50, 75, 90, 95, 99};

    /** Scores in [from, to) (the last bin also holds 1.0). */
    public record Bin(double from, double to, int count) {
    }

    public static ScoreDistribution of(double[] scores, int bins) {
        if (bins < 1) {
            throw new IllegalArgumentException("bins must be >= 1");
        }
        int[] counts = new int[bins];
        for (double score : scores) {
            counts[Math.min(bins - 1, Math.max(0, (int) Math.floor(score * bins)))]++;
        }
        List<Bin> histogram = new ArrayList<>(bins);
        for (int b = 0; b < bins; b++) {
            histogram.add(new Bin(round((double) b / bins), round((double) (b + 1) / bins), counts[b]));
        }
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        Map<String, Double> percentiles = new LinkedHashMap<>();
        for (double p : PERCENTILES) {
            percentiles.put(String.format(Locale.ROOT, "p%d", (int) p), sorted.length == 0 ? 0.0
                    : percentile(sorted, p));
        }
        double mean = sorted.length == 0 ? 0.0 : Arrays.stream(sorted).average().orElse(0);
        return new ScoreDistribution(sorted.length, mean, sorted.length == 0 ? 0.0 : sorted[0],
                sorted.length == 0 ? 0.0 : sorted[sorted.length - 1], histogram, percentiles);
    }

    /** The p-th percentile (0–100) of sorted values, interpolating linearly between neighbours. */
    static double percentile(double[] sorted, double p) {
        double position = p / 100.0 * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(sorted.length - 1, below + 1);
        return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
    }

    private static double round(double value) {
        return Math.round(value * 1e6) / 1e6;
    }
}
