package dev.zerolayer.bench.complexity;

/**
 * The n-gram regression's expected value from the lexical features alone (a ridge fit over the rows it is given), put
 * in for the share of a prompt written in a script the n-gram weights never saw: n-gram term = latin × regression +
 * (1 − latin) × expected, latin being the share of the prompt's letters that are Latin.
 */
final class NgramImputation {

    private static final double RIDGE = 1e-3;

    private final double[] weights;

    private NgramImputation(double[] weights) {
        this.weights = weights;
    }

    /** Fits the regression values of the rows {@code use} marks on their prompts' lexical features. */
    static NgramImputation fit(double[][] features, double[] regression, boolean[] use) {
        int d = features[0].length + 1;
        double[][] gram = new double[d][d];
        double[] moment = new double[d];
        for (int i = 0; i < features.length; i++) {
            if (!use[i]) {
                continue;
            }
            double[] x = withIntercept(features[i]);
            for (int a = 0; a < d; a++) {
                moment[a] += x[a] * regression[i];
                for (int b = 0; b < d; b++) {
                    gram[a][b] += x[a] * x[b];
                }
            }
        }
        for (int a = 1; a < d; a++) {
            gram[a][a] += RIDGE * Math.max(1, gram[a][a]);
        }
        return new NgramImputation(NormalEquations.solve(gram, moment));
    }

    /** The expected regression value for a prompt's lexical features. */
    double expected(double[] features) {
        double[] x = withIntercept(features);
        double value = 0;
        for (int a = 0; a < x.length; a++) {
            value += weights[a] * x[a];
        }
        return value;
    }

    /**
     * The n-gram term for a prompt with these lexical features: its own regression value where it is Latin text, the
     * expected value elsewhere.
     */
    double term(String prompt, double[] features, double regression) {
        double latin = latinShare(prompt);
        return latin * regression + (1 - latin) * expected(features);
    }

    /** The share of a text's letters that are Latin (1 for a text without letters). */
    static double latinShare(String text) {
        int letters = 0;
        int latin = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetter(cp)) {
                letters++;
                latin += Character.UnicodeScript.of(cp) == Character.UnicodeScript.LATIN ? 1 : 0;
            }
        }
        return letters == 0 ? 1 : (double) latin / letters;
    }

    private static double[] withIntercept(double[] features) {
        double[] x = new double[features.length + 1];
        x[0] = 1;
        System.arraycopy(features, 0, x, 1, features.length);
        return x;
    }
}
