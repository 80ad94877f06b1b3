package dev.zerolayer.complexity.observation;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.routing.stats.TierTally;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import java.util.List;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Per-tier counts of the decisions read from {@code router.decisions.v1} (in batches: one event per client request)
 * and of those that fell back; every decision read is also handed to the listener (calibration); a record that is no
 * valid decision is dead-lettered without stopping the rest of its batch.
 */
public class ObservedDecisions implements Consumer<Message<List<byte[]>>> {

    /** The tier under which decisions that never reached a tier (rejected before routing) are counted. */
    public static final String NO_TIER = TierTally.NO_TIER;

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final TierTally tally = new TierTally();
    private final Consumer<RoutingDecision> listener;

    public ObservedDecisions(EventReader reader, DeadLetters deadLetters, Consumer<RoutingDecision> listener) {
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.listener = listener;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.ROUTER_DECISIONS_TOPIC, reader, deadLetters, this::observe);
    }

    /** Counts one decision and hands it to the listener. */
    public void observe(RoutingDecision decision) {
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
