package dev.zerolayer.bench.complexity;

import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Chinese translations of some labelled prompts ({@code complexity/translated-training.tsv}, written for this
 * project), found by the SHA-256 of the original prompt: a translation is a training copy that keeps its original's
 * labels and fold, and out of fold it measures how far translation moves a score.
 */
record TranslatedCopies(String[] byRow) {

    static final String RESOURCE = "/complexity/translated-training.tsv";

    /** The translation of each row (null where none), matched by the hash of the row's prompt. */
    static TranslatedCopies of(List<ComplexityExperiment.Row> rows) {
        Map<String, String> byKey = new HashMap<>();
        try (InputStream in = TranslatedCopies.class.getResourceAsStream(RESOURCE)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t", 3);
                byKey.put(parts[0] + "\t" + parts[1], unescape(parts[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String[] byRow = new String[rows.size()];
        int found = 0;
        for (int i = 0; i < rows.size(); i++) {
            byRow[i] = byKey.get(rows.get(i).dataset() + "\t" + key(rows.get(i).prompt()));
            found += byRow[i] == null ? 0 : 1;
        }
        if (found != byKey.size()) {
            throw new IllegalStateException(found + " of " + byKey.size() + " translations match a labelled prompt");
        }
        return new TranslatedCopies(byRow);
    }

    int size() {
        return (int) Arrays.stream(byRow).filter(t -> t != null).count();
    }

    /** The first 16 hex digits of the SHA-256 of a prompt's UTF-8 bytes. */
    static String key(String prompt) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(prompt.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                char next = text.charAt(++i);
                out.append(next == 'n' ? '\n' : next == 't' ? '\t' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * How far translation moves a score, in percentiles of the originals' scores: median / p95 / max of |percentile of
     * the translation − percentile of the original| over the translated rows, {@code translated[i]} being row i's
     * translation's score.
     */
    String shift(double[] original, double[] translated) {
        double[] sorted = original.clone();
        Arrays.sort(sorted);
        double[] shifts = new double[size()];
        int k = 0;
        for (int i = 0; i < byRow.length; i++) {
            if (byRow[i] != null) {
                shifts[k++] = Math.abs(ComplexityExperiment.percentile(sorted, translated[i])
                        - ComplexityExperiment.percentile(sorted, original[i]));
            }
        }
        Arrays.sort(shifts);
        return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", shifts[shifts.length / 2],
                shifts[(int) (shifts.length * 0.95)], shifts[shifts.length - 1]);
    }

    /** Pearson's correlation of the originals' and the translations' values over the translated rows. */
    double correlation(double[] original, double[] translated) {
        double[] a = new double[size()];
        double[] b = new double[size()];
        int k = 0;
        for (int i = 0; i < byRow.length; i++) {
            if (byRow[i] != null) {
                a[k] = original[i];
                b[k++] = translated[i];
            }
        }
        double meanA = Arrays.stream(a).average().orElse(0);
        double meanB = Arrays.stream(b).average().orElse(0);
        double ab = 0;
        double aa = 0;
        double bb = 0;
        for (int j = 0; j < k; j++) {
            ab += (a[j] - meanA) * (b[j] - meanB);
            aa += (a[j] - meanA) * (a[j] - meanA);
            bb += (b[j] - meanB) * (b[j] - meanB);
        }
        return aa == 0 || bb == 0 ? 0 : ab / Math.sqrt(aa * bb);
    }

    /**
     * How far translation moves the n-gram regression and the learned model's stacked score, out of fold: each
     * translated row's Chinese copy scored by the fold's model fitted without the row (and without its copies);
     * {@code features}: each row's lexical features.
     */
    String heldOut(List<ComplexityExperiment.Row> rows, int[] fold, Learned learned, double[] regression,
            double[] translatedRegression, double[][] features, double[] lexicalLogits, double[] easyLogits,
            ComplexityScorer lexical, int perTranslation) {
        double[] stacked = new double[rows.size()];
        double[] translatedStacked = new double[rows.size()];
        double[][] chineseLogits = new double[rows.size()][];
        double[][] chineseFeatures = new double[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            stacked[i] = learned.stackedLogit(regression[i], lexicalLogits[i], easyLogits[i]);
            String translation = byRow[i];
            if (translation != null) {
                chineseFeatures[i] = ComplexityScorer.features(Conversation.ofUser(translation));
                chineseLogits[i] = new double[] {ComplexityExperiment.lexicalLogit(lexical, chineseFeatures[i]),
                        ComplexityExperiment.easyLogit(lexical, chineseFeatures[i])};
                translatedStacked[i] = learned.stackedLogit(translatedRegression[i], chineseLogits[i][0],
                        chineseLogits[i][1]);
            }
        }
        // the n-gram term's expected value from the lexical features, fitted out of fold, where the text is not Latin
        double[] imputed = new double[rows.size()];
        double[] translatedImputed = new double[rows.size()];
        double[] imputedStacked = new double[rows.size()];
        double[] translatedImputedStacked = new double[rows.size()];
        double[] lexicalOnly = new double[rows.size()];
        double moved = 0;
        for (int f = 0; f <= Arrays.stream(fold).max().orElse(0); f++) {
            boolean[] outside = new boolean[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                outside[i] = fold[i] != f;
            }
            NgramImputation imputation = NgramImputation.fit(features, regression, outside);
            for (int i = 0; i < rows.size(); i++) {
                if (fold[i] != f) {
                    continue;
                }
                imputed[i] = imputation.term(rows.get(i).prompt(), features[i], regression[i]);
                moved = Math.max(moved, Math.abs(imputed[i] - regression[i]));
                imputedStacked[i] = learned.stackedLogit(imputed[i], lexicalLogits[i], easyLogits[i]);
                if (byRow[i] != null) {
                    translatedImputed[i] = imputation.term(byRow[i], chineseFeatures[i], translatedRegression[i]);
                    translatedImputedStacked[i] = learned.stackedLogit(translatedImputed[i], chineseLogits[i][0],
                            chineseLogits[i][1]);
                    lexicalOnly[i] = learned.stackedLogit(regression[i], chineseLogits[i][0], chineseLogits[i][1]);
                }
            }
        }
        return String.format(Locale.ROOT, "## Translation, held out (%d translated training prompts, %d training "
                + "copies each)%n%nShift in percentiles of the originals' scores, median / p95 / max; the n-gram part "
                + "out of fold, the stacking's four weights fitted on every row.%n%n| score | shift |%n|---|---|%n"
                + "| n-gram regression → graded gap | %s |%n| learned model's stacked form | %s |%n"
                + "| n-gram term imputed from the lexical features where the text is not Latin (out of fold) | %s |%n"
                + "| learned model's stacked form, with that term | %s |%n"
                + "| learned model's stacked form, the original's own n-gram term (what the lexical features move) | %s |%n%n"
                + "Correlation of the n-gram regression, original against translation (Pearson, out of fold): %.3f.%n%n"
                + "The imputation moves the labelled rows' own n-gram term by at most %.3f (non-Latin letters in "
                + "them).%n%n",
                size(), perTranslation, shift(regression, translatedRegression), shift(stacked, translatedStacked),
                shift(imputed, translatedImputed), shift(imputedStacked, translatedImputedStacked),
                shift(stacked, lexicalOnly), correlation(regression, translatedRegression), moved);
    }
}
