package dev.zerolayer.bench.complexity;

import dev.zerolayer.routing.complexity.HashedNgrams;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The training samples: every row's n-grams (sample {@code i} is row {@code i}), then {@code augment} padded copies
 * of each row, then {@code perTranslation} copies of each row's translation, then {@code perPseudo} copies of each
 * row's word-by-word Chinese ({@code pseudo[i]}, null for none); {@code source[j]} is the row of sample {@code j}.
 */
record Training(List<HashedNgrams.Sparse> x, int[] source, int pseudoFrom) {

    static Training of(List<ComplexityExperiment.Row> rows, List<HashedNgrams.Sparse> features, HashedNgrams ngrams,
            int augment, TranslatedCopies translations, int perTranslation, String[] pseudo, int perPseudo) {
        List<HashedNgrams.Sparse> x = new ArrayList<>(features);
        int pseudoRows = pseudo == null ? 0 : (int) java.util.Arrays.stream(pseudo).filter(p -> p != null).count();
        int[] source = new int[rows.size() * (1 + augment) + translations.size() * perTranslation
                + pseudoRows * perPseudo];
        Random random = new Random(ComplexityExperiment.SEED + 1);
        for (int i = 0; i < rows.size(); i++) {
            source[i] = i;
        }
        for (int copy = 1; copy <= augment; copy++) {
            for (int i = 0; i < rows.size(); i++) {
                source[x.size()] = i;
                x.add(ngrams.features(ComplexityExperiment.augmented(rows.get(i).prompt(), random)));
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            String translation = translations.byRow()[i];
            if (translation == null || perTranslation == 0) {
                continue;
            }
            HashedNgrams.Sparse sample = ngrams.features(translation);
            for (int copy = 0; copy < perTranslation; copy++) {
                source[x.size()] = i;
                x.add(sample);
            }
        }
        int pseudoFrom = x.size();
        for (int i = 0; pseudo != null && i < rows.size(); i++) {
            if (pseudo[i] == null || perPseudo == 0) {
                continue;
            }
            HashedNgrams.Sparse sample = ngrams.features(pseudo[i]);
            for (int copy = 0; copy < perPseudo; copy++) {
                source[x.size()] = i;
                x.add(sample);
            }
        }
        return new Training(List.copyOf(x), source, pseudoFrom);
    }

    /** The samples whose row is in a fold other than {@code fold} (all samples when {@code fold} is -1). */
    List<Integer> outside(int[] folds, int fold) {
        List<Integer> train = new ArrayList<>();
        for (int j = 0; j < source.length; j++) {
            if (fold < 0 || folds[source[j]] != fold) {
                train.add(j);
            }
        }
        return train;
    }
}
