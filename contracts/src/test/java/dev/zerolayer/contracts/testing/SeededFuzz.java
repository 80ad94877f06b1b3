package dev.zerolayer.contracts.testing;

import java.security.SecureRandom;
import java.util.Random;
import java.util.function.BiConsumer;

/**
 * Runs seeded fuzz cases, each with its own {@link Random} derived from one seed, so that a failure names the seed and
 * case that replay it exactly: {@code -Dzerolayer.fuzz.seed}, {@code -Dzerolayer.fuzz.case}; {@code
 * -Dzerolayer.fuzz.cases} overrides the count.
 */
public final class SeededFuzz {

    private SeededFuzz() {
    }

    public static void run(String surface, int defaultCases, BiConsumer<Random, Integer> body) {
        int cases = Integer.getInteger("zerolayer.fuzz.cases", defaultCases);
        long seed = Long.getLong("zerolayer.fuzz.seed", new SecureRandom().nextLong());
        Integer only = Integer.getInteger("zerolayer.fuzz.case");
        long start = System.nanoTime();
        for (int i = only == null ? 0 : only; i < (only == null ? cases : only + 1); i++) {
            Random random = new Random(seed ^ (i * 0x9E3779B97F4A7C15L));
            try {
                body.accept(random, i);
            } catch (AssertionError | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                throw new AssertionError("fuzz " + surface + " failed at case " + i + "; replay with -Dzerolayer.fuzz.seed="
                        + seed + " -Dzerolayer.fuzz.case=" + i + ": " + e, e);
            }
        }
        System.out.printf("fuzz %s: %d cases in %d ms (seed %d)%n", surface, only == null ? cases : 1,
                (System.nanoTime() - start) / 1_000_000, seed);
    }
}
