package dev.zerolayer.routing.complexity;

/**
 * The vague-instruction rule: when the {@code vague} feature is at least 0.5 the score is held in [0.85, 0.95] — such
 * prompts need a strong model to guess intent, yet stay below the 0.95 high-complexity fallback.
 */
public final class VagueBand {

    public static final String RULE = "vague_band";
    public static final double THRESHOLD = 0.5;
    public static final double FLOOR = 0.85;
    public static final double CEILING = 0.95;

    private VagueBand() {
    }

    static boolean applies(double vague) {
        return vague >= THRESHOLD;
    }

    static double apply(double score) {
        return Math.max(FLOOR, Math.min(CEILING, score));
    }
}
