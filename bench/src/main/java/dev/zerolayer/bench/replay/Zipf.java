package dev.zerolayer.bench.replay;

import java.util.SplittableRandom;

/** A Zipf draw over ranks 0..n-1: rank k has weight 1 / (k+1)^s; inverse-CDF over a precomputed table. */
public final class Zipf {

    private final double[] cumulative;

    public Zipf(int n, double exponent) {
        if (n < 1 || !(exponent >= 0)) {
            throw new IllegalArgumentException("n must be >= 1 and exponent >= 0");
        }
        cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1.0 / Math.pow(k + 1, exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
    }

    public int draw(SplittableRandom random) {
        double u = random.nextDouble();
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulative[mid] < u) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    public int size() {
        return cumulative.length;
    }
}
