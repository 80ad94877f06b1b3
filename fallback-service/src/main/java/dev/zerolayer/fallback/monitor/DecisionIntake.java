package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.fallback.dryrun.RecentDecisions;
import dev.zerolayer.fallback.dryrun.ReplayInput;
import dev.zerolayer.platform.events.EventReader;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Reads each {@code router.decisions.v1} record once and hands it to the counts since start, the sliding-window
 * monitor and the dry-run replay buffer; a poison record is dead-lettered by the reader and reaches none of them.
 */
public class DecisionIntake implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final FallbackCounts counts;
    private final FallbackMonitor monitor;
    private final RecentDecisions recent;

    public DecisionIntake(EventReader reader, FallbackCounts counts, FallbackMonitor monitor,
            RecentDecisions recent) {
        this.reader = reader;
        this.counts = counts;
        this.monitor = monitor;
        this.recent = recent;
    }

    @Override
    public void accept(Message<byte[]> message) {
        RoutingDecision decision = reader.read(message, RoutingDecision.class);
        counts.record(decision);
        monitor.record(decision);
        ReplayInput.of(decision).ifPresent(recent::add);
    }
}
