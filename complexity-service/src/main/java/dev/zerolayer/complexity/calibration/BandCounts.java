package dev.zerolayer.complexity.calibration;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of one score band: decisions and fallbacks, per served tier, per table tier, per fallback reason, and for
 * unpinned decisions per table tier and per threshold-movable fallback ({@code table>served}).
 */
public final class BandCounts {

    long decisions;
    long fallbacks;
    final Map<String, Long> served = new TreeMap<>();
    final Map<String, Long> table = new TreeMap<>();
    final Map<String, Long> reasons = new TreeMap<>();
    final Map<String, Long> tableUnpinned = new TreeMap<>();
    final Map<String, Long> moves = new TreeMap<>();

    void add(Observation o, boolean movable) {
        decisions++;
        served.merge(o.servedTier(), 1L, Long::sum);
        table.merge(o.tableTier(), 1L, Long::sum);
        if (!o.pinned()) {
            tableUnpinned.merge(o.tableTier(), 1L, Long::sum);
        }
        if (o.fallback()) {
            fallbacks++;
            reasons.merge(o.fallbackReason() == null ? "unknown" : o.fallbackReason(), 1L, Long::sum);
            if (movable) {
                moves.merge(move(o.tableTier(), o.servedTier()), 1L, Long::sum);
            }
        }
    }

    void addAll(BandCounts other) {
        decisions += other.decisions;
        fallbacks += other.fallbacks;
        other.served.forEach((k, v) -> served.merge(k, v, Long::sum));
        other.table.forEach((k, v) -> table.merge(k, v, Long::sum));
        other.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
        other.tableUnpinned.forEach((k, v) -> tableUnpinned.merge(k, v, Long::sum));
        other.moves.forEach((k, v) -> moves.merge(k, v, Long::sum));
    }

    static String move(String from, String to) {
        return from + ">" + to;
    }

    public long decisions() {
        return decisions;
    }

    public long fallbacks() {
        return fallbacks;
    }

    /** Unpinned decisions whose table tier was {@code tier}. */
    public long unpinned(String tier) {
        return tableUnpinned.getOrDefault(tier, 0L);
    }

    /** Unpinned fallbacks (other than the high-complexity rule) from table tier {@code from} to served tier {@code to}. */
    public long moved(String from, String to) {
        return moves.getOrDefault(move(from, to), 0L);
    }

    public Map<String, Long> served() {
        return Map.copyOf(served);
    }

    public Map<String, Long> table() {
        return Map.copyOf(table);
    }

    public Map<String, Long> reasons() {
        return Map.copyOf(reasons);
    }
}
