package dev.zerolayer.console.fleet;

import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The fleet as the console shows it: every node of {@code telemetry.node-health.v1} (a compacted view) joined with the
 * latest {@code telemetry.samples.v1} sample of its GPU, its circuit breaker as the newest decision that weighed it
 * reported, and, in local mode, its active simulator faults; reads the samples in batches.
 */
public final class Fleet implements Consumer<Message<List<byte[]>>> {

    private final CompactedView<NodeHealth> health;
    private final java.util.function.Function<String, List<String>> faults;
    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final Map<String, TelemetrySample> latestSamples = new ConcurrentHashMap<>();
    private final Map<String, BreakerSeen> breakers = new ConcurrentHashMap<>();

    /** A node's breaker as decisions reported it: open or not, since when, and the newest report's time. */
    private record BreakerSeen(boolean open, Instant since, Instant seenAt) {

        BreakerSeen next(boolean nowOpen, Instant at) {
            if (at.isBefore(seenAt)) {
                return this; // an older decision read late says nothing about now
            }
            return new BreakerSeen(nowOpen, nowOpen == open ? since : at, at);
        }
    }

    /** {@code faults}: a node's active simulator faults (local mode; none otherwise). */
    public Fleet(CompactedView<NodeHealth> health, java.util.function.Function<String, List<String>> faults,
            EventReader reader, DeadLetters deadLetters) {
        this.health = health;
        this.faults = faults;
        this.reader = reader;
        this.deadLetters = deadLetters;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.TELEMETRY_SAMPLES_TOPIC, reader, deadLetters, this::sample);
    }

    /** Keeps the newest sample of each node (registrations are read from the health records instead). */
    public void sample(NodeTelemetry telemetry) {
        if (telemetry instanceof TelemetrySample sample) {
            latestSamples.merge(sample.nodeId(), sample,
                    (old, next) -> next.occurredAt().isBefore(old.occurredAt()) ? old : next);
        }
    }

    /** Notes the breaker of every node the decision weighed (records without the field say nothing). */
    public void decided(RoutingDecision decision) {
        for (CandidateScore candidate : decision.candidates()) {
            Boolean open = candidate.breakerOpen();
            if (open != null && candidate.node() != null) {
                Instant at = decision.occurredAt();
                breakers.merge(candidate.node(), new BreakerSeen(open, at, at),
                        (old, next) -> old.next(next.open(), next.seenAt()));
            }
        }
    }

    /** Every known node, ordered by tier, cluster and id. */
    public List<NodeRow> nodes() {
        return health.values().stream().map(this::row)
                .sorted(Comparator.comparing(NodeRow::tier).thenComparing(NodeRow::cluster)
                        .thenComparing(NodeRow::nodeId))
                .toList();
    }

    private NodeRow row(NodeHealth node) {
        TelemetrySample sample = latestSamples.get(node.nodeId());
        BreakerSeen breaker = breakers.get(node.nodeId());
        String tier = node.registration() == null ? "" : node.registration().tier();
        String cluster = node.registration() == null ? "" : node.registration().cluster();
        return new NodeRow(node.nodeId(), tier == null ? "" : tier, cluster == null ? "" : cluster,
                node.state().name(), node.score(), node.diagnosis(), node.reasons(), node.load(), node.queueDepth(),
                node.kvCacheUsage(), sample == null ? null : sample.smActive(),
                sample == null ? null : sample.framebufferUsedMiB(),
                sample == null ? null : sample.framebufferUsedMiB() + sample.framebufferFreeMiB(),
                node.lastSampleAgeMs(), breaker == null ? null : breaker.open(),
                breaker == null ? null : breaker.since(), faults.apply(node.nodeId()));
    }
}
