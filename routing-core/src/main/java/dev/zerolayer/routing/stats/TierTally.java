package dev.zerolayer.routing.stats;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts decisions and fallbacks per tier, thread-safe; a decision without a tier counts under {@value #NO_TIER}, and
 * a tier's fallback rate never exceeds 1.
 */
public final class TierTally {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = "none";

    private final Map<String, Tally> byTier = new ConcurrentHashMap<>();

    public void record(String tier, boolean fellBack) {
        String name = tier == null || tier.isBlank() ? NO_TIER : tier;
        Tally tally = byTier.computeIfAbsent(name, key -> new Tally());
        tally.decisions.increment();
        if (fellBack) {
            tally.fallbacks.increment();
        }
    }

    /** The counts of one tier (zeros when none of its decisions was seen). */
    public TierStats tier(String tier) {
        Tally tally = byTier.get(tier);
        return tally == null ? TierStats.of(0, 0) : tally.stats();
    }

    /** Every tier seen so far, by name. */
    public SortedMap<String, TierStats> byTier() {
        SortedMap<String, TierStats> stats = new TreeMap<>();
        byTier.forEach((tier, tally) -> stats.put(tier, tally.stats()));
        return stats;
    }

    /** The sum over all tiers. */
    public TierStats total() {
        long decisions = 0;
        long fallbacks = 0;
        for (TierStats stats : byTier().values()) {
            decisions += stats.decisions();
            fallbacks += stats.fallbacks();
        }
        return TierStats.of(decisions, fallbacks);
    }

    /** Decisions of a tier, how many fell back, and that share (0 when there were none). */
    public record TierStats(long decisions, long fallbacks, double fallbackRate) {

        public static TierStats of(long decisions, long fallbacks) {
            return new TierStats(decisions, fallbacks, decisions == 0 ? 0 : (double) fallbacks / decisions);
        }
    }

    private static final class Tally {
        private final LongAdder decisions = new LongAdder();
        private final LongAdder fallbacks = new LongAdder();

        TierStats stats() {
            // read fallbacks first: every fallback was counted as a decision before it, so the rate stays <= 1
            long fell = fallbacks.sum();
            return TierStats.of(Math.max(decisions.sum(), fell), fell);
        }
    }
}
