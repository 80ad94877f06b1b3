package dev.zerolayer.complexity.model;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/** Area under the ROC curve of a score for a yes/no label (Mann–Whitney: tied scores count half); 0.5 is random. */
public final class Auc {

    private Auc() {
    }

    /** The AUC; fails when the arrays differ in length or a class is empty. */
    public static double of(double[] scores, boolean[] positive) {
        int n = scores.length;
        if (positive.length != n) {
            throw new IllegalArgumentException("scores and labels differ in length");
        }
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> scores[i]));
        long positives = 0;
        double rankSum = 0;
        int i = 0;
        while (i < n) {
            int end = i;
            while (end < n && scores[order[end]] == scores[order[i]]) {
                end++;
            }
            double averageRank = (i + 1 + end) / 2.0;
            for (int j = i; j < end; j++) {
                if (positive[order[j]]) {
                    positives++;
                    rankSum += averageRank;
                }
            }
            i = end;
        }
        long negatives = n - positives;
        if (positives == 0 || negatives == 0) {
            throw new IllegalArgumentException("AUC needs both classes");
        }
        return (rankSum - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }
}
