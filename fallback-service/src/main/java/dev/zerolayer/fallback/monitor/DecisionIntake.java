package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.fallback.dryrun.RecentDecisions;
import dev.zerolayer.fallback.dryrun.ReplayInput;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Reads {@code router.decisions.v1} in batches (one event per client request) and hands each decision once to the
 * counts since start, the sliding-window monitor and the dry-run replay buffer; a poison record is dead-lettered
 * alone and reaches none of them.
 */
public class DecisionIntake implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final FallbackCounts counts;
    private final FallbackMonitor monitor;
    private final RecentDecisions recent;

    public DecisionIntake(EventReader reader, DeadLetters deadLetters, FallbackCounts counts, FallbackMonitor monitor,
            RecentDecisions recent) {
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.counts = counts;
        this.monitor = monitor;
        this.recent = recent;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.ROUTER_DECISIONS_TOPIC, reader, deadLetters, this::take);
    }

    /** Hands one decision on. */
    public void take(RoutingDecision decision) {
        counts.record(decision);
        monitor.record(decision);
        ReplayInput.of(decision).ifPresent(recent::add);
    }
}
