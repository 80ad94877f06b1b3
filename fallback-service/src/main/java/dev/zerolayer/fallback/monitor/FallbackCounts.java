package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.routing.stats.TierTally;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/** Per-tier counts of the decisions read from {@code router.decisions.v1} and of those that fell back, since start. */
public class FallbackCounts implements Consumer<Message<byte[]>> {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = TierTally.NO_TIER;

    private final EventReader reader;
    private final TierTally tally = new TierTally();

    public FallbackCounts(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void accept(Message<byte[]> message) {
        record(reader.read(message, Topics.ROUTER_DECISIONS_TOPIC));
    }

    public void record(RoutingDecision decision) {
        tally.record(decision.tier(), decision.fallbackTriggered());
    }

    public TierStats tier(String tier) {
        return tally.tier(tier);
    }

    public SortedMap<String, TierStats> byTier() {
        return tally.byTier();
    }

    public TierStats total() {
        return tally.total();
    }
}
