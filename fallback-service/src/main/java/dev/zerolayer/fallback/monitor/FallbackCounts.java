package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.events.EventReader;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/** Per-tier counts of the decisions read from {@code router.decisions.v1} and of those that fell back, since start. */
public class FallbackCounts implements Consumer<Message<byte[]>> {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = "none";

    private final EventReader reader;
    private final Map<String, Tally> byTier = new ConcurrentHashMap<>();

    public FallbackCounts(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void accept(Message<byte[]> message) {
        RoutingDecision decision = reader.read(message, RoutingDecision.class);
        String tier = decision.tier() == null || decision.tier().isBlank() ? NO_TIER : decision.tier();
        Tally tally = byTier.computeIfAbsent(tier, name -> new Tally());
        tally.decisions.increment();
        if (decision.fallbackTriggered()) {
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
            // fallbacks first: each fallback read was counted as a decision before it, so the rate never exceeds 1
            long fell = fallbacks.sum();
            return TierStats.of(Math.max(decisions.sum(), fell), fell);
        }
    }
}
