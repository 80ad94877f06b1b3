package dev.zerolayer.complexity.observation;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.routing.stats.TierTally;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Per-tier counts of the decisions read from {@code router.decisions.v1} and of those that fell back; every decision
 * read is also handed to the listener (calibration).
 */
public class ObservedDecisions implements Consumer<Message<byte[]>> {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = TierTally.NO_TIER;

    private final EventReader reader;
    private final TierTally tally = new TierTally();
    private final Consumer<RoutingDecision> listener;

    public ObservedDecisions(EventReader reader) {
        this(reader, decision -> { });
    }

    public ObservedDecisions(EventReader reader, Consumer<RoutingDecision> listener) {
        this.reader = reader;
        this.listener = listener;
    }

    @Override
    public void accept(Message<byte[]> message) {
        RoutingDecision decision = reader.read(message, RoutingDecision.class);
        tally.record(decision.tier(), decision.fallbackTriggered());
        listener.accept(decision);
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
