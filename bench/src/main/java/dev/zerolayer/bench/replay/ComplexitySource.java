package dev.zerolayer.bench.replay;

import dev.zerolayer.bench.complexity.PromptData;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a replayed request's complexity comes from (the trace has no text): the empirical distribution of the real
 * default scorer's scores over the labelled prompt sets (inverse CDF at a seeded uniform, nearest rank), or — when the
 * prompt data is absent — the synthetic formula 0.75 u + 0.25 min(1, log2(1 + context) / 15).
 */
public final class ComplexitySource {

    /** The prompt files scored, in a fixed order (each has a {@code prompt} field). */
    static final List<String> FILES = List.of(PromptData.GSM8K, PromptData.MMLU, PromptData.HUMANEVAL,
            PromptData.ARENA_HARD);
    static final double LENGTH_WEIGHT = 0.25;

    private final double[] sortedScores;
    private final String description;

    private ComplexitySource(double[] sortedScores, String description) {
        this.sortedScores = sortedScores;
        this.description = description;
    }

    /** The synthetic formula (the fallback). */
    public static ComplexitySource formula(String why) {
        return new ComplexitySource(null, "synthetic formula 0.75 u + 0.25 min(1, log2(1 + context) / 15)"
                + (why == null ? "" : " (" + why + ")"));
    }

    /** An empirical distribution over the given scores (any order). */
    public static ComplexitySource empirical(double[] scores, String description) {
        if (scores.length == 0) {
            throw new IllegalArgumentException("no scores");
        }
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        return new ComplexitySource(sorted, description);
    }

    /**
     * Scores every prompt of the four prompt files in {@code dir} once with {@code ComplexityScorer.defaultScorer()};
     * falls back to the formula (saying so in {@link #description()}) when the directory or a file is missing.
     */
    public static ComplexitySource fromPrompts(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return formula("prompt data not found at " + dir + ": FALLBACK to the formula");
        }
        for (String file : FILES) {
            if (!Files.isRegularFile(dir.resolve(file))) {
                return formula("prompt file " + file + " missing in " + dir + ": FALLBACK to the formula");
            }
        }
        ComplexityScorer scorer = ComplexityScorer.defaultScorer();
        List<Double> scores = new ArrayList<>();
        for (String file : FILES) {
            for (String prompt : PromptData.prompts(dir, file)) {
                scores.add(scorer.score(prompt).score());
            }
        }
        double[] values = scores.stream().mapToDouble(Double::doubleValue).toArray();
        return empirical(values, String.format(Locale.ROOT,
                "empirical: %d real prompts (%s) scored by the default scorer (model %s)", values.length,
                String.join(", ", FILES), scorer.modelVersion()));
    }

    /** The complexity for a request with uniform draw {@code u} in [0, 1) and {@code contextTokens}. */
    public double draw(double u, int contextTokens) {
        if (sortedScores == null) {
            double length = Math.min(1.0, (Math.log(1 + contextTokens) / Math.log(2)) / 15.0);
            return Math.max(0.0, Math.min(1.0, (1 - LENGTH_WEIGHT) * u + LENGTH_WEIGHT * length));
        }
        int index = (int) Math.min(sortedScores.length - 1, Math.floor(u * sortedScores.length));
        return sortedScores[Math.max(0, index)];
    }

    public boolean empirical() {
        return sortedScores != null;
    }

    /** How many scores the distribution holds (0 for the formula). */
    public int size() {
        return sortedScores == null ? 0 : sortedScores.length;
    }

    public String description() {
        return description;
    }

    /** The default location: {@code ../shared/data/prompts} from the repository root or a module directory. */
    static Path defaultDir() {
        for (Path base : new Path[] {Path.of(""), Path.of("..")}) {
            Path candidate = base.resolve("../shared/data/prompts").toAbsolutePath().normalize();
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return Path.of("../shared/data/prompts").toAbsolutePath().normalize();
    }
}
