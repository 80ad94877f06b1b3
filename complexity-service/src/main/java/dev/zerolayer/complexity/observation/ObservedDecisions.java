package dev.zerolayer.complexity.observation;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.events.EventReader;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/** Per-tier counts of the decisions read from {@code router.decisions.v1} and of those that fell back. */
public class ObservedDecisions implements Consumer<Message<byte[]>> {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = "none";

    private final EventReader reader;
    private final Map<String, Tally> byTier = new ConcurrentHashMap<>();

    public ObservedDecisions(EventReader reader) {
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
    public TierCounts tier(String tier) {
        Tally tally = byTier.get(tier);
        return tally == null ? new TierCounts(0, 0) : tally.counts();
    }

    /** Every tier seen so far, by name. */
    public SortedMap<String, TierCounts> byTier() {
        SortedMap<String, TierCounts> counts = new TreeMap<>();
        byTier.forEach((tier, tally) -> counts.put(tier, tally.counts()));
        return counts;
    }

    /** The sum over all tiers. */
    public TierCounts total() {
        return byTier().values().stream().reduce(new TierCounts(0, 0),
                (a, b) -> new TierCounts(a.decisions() + b.decisions(), a.fallbacks() + b.fallbacks()));
    }

    /** How many decisions of a tier were seen, and how many of them fell back. */
    public record TierCounts(long decisions, long fallbacks) {
    }

    private static final class Tally {
        private final LongAdder decisions = new LongAdder();
        private final LongAdder fallbacks = new LongAdder();

        TierCounts counts() {
            return new TierCounts(decisions.sum(), fallbacks.sum());
        }
    }
}
