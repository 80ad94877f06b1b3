package dev.zerolayer.bench.complexity;

/** Solves a small dense linear system {@code a x = b} by Gaussian elimination with partial pivoting (0 where singular). */
final class NormalEquations {

    private NormalEquations() {
    }

    /** The solution of {@code a x = b}; {@code a} and {@code b} are overwritten. */
    static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            double[] row = a[col];
            a[col] = a[pivot];
            a[pivot] = row;
            double t = b[col];
            b[col] = b[pivot];
            b[pivot] = t;
            if (Math.abs(a[col][col]) < 1e-12) {
                continue;
            }
            for (int r = col + 1; r < n; r++) {
                double f = a[r][col] / a[col][col];
                for (int c = col; c < n; c++) {
                    a[r][c] -= f * a[col][c];
                }
                b[r] -= f * b[col];
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double s = b[r];
            for (int c = r + 1; c < n; c++) {
                s -= a[r][c] * x[c];
            }
            x[r] = Math.abs(a[r][r]) < 1e-12 ? 0 : s / a[r][r];
        }
        return x;
    }
}
