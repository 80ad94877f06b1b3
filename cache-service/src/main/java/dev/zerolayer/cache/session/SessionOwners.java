package dev.zerolayer.cache.session;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.PartitionOwners;
import dev.zerolayer.platform.replica.PublicationRound;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The session owners of cache-service: every replica keeps every session (it reads every decision), and the owner of
 * {@code cache.sessions.v1} partition p (group {@code cache-service.sessions}) alone publishes p's sessions (changed
 * ones, tombstones for forgotten ones) and the prewarm commands they trigger, stamped with its replica and the group
 * generation, under a transactional id of its own for p; taking p over, it reads p to its end and reconciles, so that
 * it sends exactly the difference. The changes of sessions another replica publishes are forgotten each round.
 */
public final class SessionOwners extends PartitionOwners<SessionOwners.Prewarms> {

    /** The consumer group the session owners share. */
    public static final String GROUP = "cache-service.sessions";

    /** One owned partition's prewarm commands waiting for its next round (polling thread only). */
    public static final class Prewarms {
        private final ArrayDeque<PrewarmCommand> queued = new ArrayDeque<>();
    }

    private final SessionTracker tracker;
    private final int maxQueuedPrewarms;
    private final Clock clock;
    private final Counter prewarmsSent;
    private final Counter prewarmsDropped;

    /** @param writers the writer of one partition (transactional id {@code cache-service.sessions-p<p>}) */
    public SessionOwners(String replica, String bootstrapServers, Map<String, ?> clientProperties,
            IntFunction<TermWriter> writers, SessionTracker tracker, int maxQueuedPrewarms, Duration interval,
            Duration sessionTimeout, Clock clock, MeterRegistry meters) {
        super(Topics.CACHE_SESSIONS, GROUP, replica, bootstrapServers, clientProperties, writers, interval,
                sessionTimeout);
        this.tracker = tracker;
        this.maxQueuedPrewarms = maxQueuedPrewarms;
        this.clock = clock;
        this.prewarmsSent = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "sent")
                .register(meters);
        this.prewarmsDropped = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "dropped")
                .register(meters);
    }

    @Override
    protected Prewarms newState(int partition) {
        return new Prewarms();
    }

    /** The sessions of partition {@code partition}. */
    private Predicate<String> of(int partition) {
        int partitions = partitionCount();
        return hash -> PartitionOwnership.partitionOf(hash, partitions) == partition;
    }

    /**
     * Queues a prewarm command for the next round of its session's partition, when this replica owns it (the owner
     * triggers the same command from the same decisions); past the queue limit the oldest is dropped and counted.
     */
    public void prewarm(PrewarmCommand command) {
        int partitions = partitionCount();
        if (partitions == 0) {
            return;
        }
        int partition = PartitionOwnership.partitionOf(command.sessionHash(), partitions);
        onPollingThread(() -> {
            Prewarms prewarms = ownedState(partition);
            if (prewarms == null) {
                return;
            }
            if (prewarms.queued.size() >= maxQueuedPrewarms) {
                prewarms.queued.pollFirst();
                prewarmsDropped.increment();
            }
            prewarms.queued.addLast(command);
        });
    }

    @Override
    protected Map<Integer, Long> takeOver(Map<Integer, Prewarms> gained) {
        Map<Integer, Map<String, SessionEntry>> published = new HashMap<>();
        gained.keySet().forEach(p -> published.put(p, new HashMap<>()));
        Map<Integer, Long> ends = new CompactedTopicReader(bootstrapServers(), clientProperties()).readPartitionsToEnd(
                Topics.CACHE_SESSIONS_TOPIC, GROUP, gained.keySet(), (record, entry) -> {
                    String key = RecordKeys.text(record.key());
                    if (entry == null) {
                        published.get(record.partition()).remove(key);
                    } else {
                        published.get(record.partition()).put(key, entry);
                    }
                }, CompactedTopicReader::skipUnreadable, this::running);
        gained.keySet().forEach(p -> tracker.reconcile(published.get(p), clock.instant(), of(p)));
        return ends;
    }

    /** Its own topic's records: the takeover read what it needs, and this replica tracks the sessions itself. */
    @Override
    protected void apply(Prewarms state, ConsumerRecord<byte[], byte[]> record) {
    }

    @Override
    protected PublicationRound round(int partition, Prewarms prewarms, Writer stamp) {
        SessionTracker.Drained drained = tracker.drain(clock.instant(), of(partition));
        List<PrewarmCommand> commands = List.copyOf(prewarms.queued);
        prewarms.queued.clear();
        if (drained.entries().isEmpty() && drained.tombstones().isEmpty() && commands.isEmpty()) {
            return PublicationRound.EMPTY;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        drained.entries().forEach(entry -> records.add(TermWriter.record(Topics.CACHE_SESSIONS, partition,
                entry.sessionHash(), entry.withWriter(stamp))));
        drained.tombstones().forEach(hash -> records.add(TermWriter.record(Topics.CACHE_SESSIONS, partition, hash,
                null)));
        commands.forEach(command -> records.add(TermWriter.record(Topics.CACHE_PREWARM, command)));
        return new PublicationRound(records, () -> prewarmsSent.increment(commands.size()), () -> {
            tracker.requeue(drained.entries().stream().map(SessionEntry::sessionHash).toList(),
                    drained.tombstones());
            for (int i = commands.size() - 1; i >= 0; i--) {
                prewarms.queued.addFirst(commands.get(i));
            }
        });
    }

    /** The sessions of partitions another replica owns are its to publish: their changes are forgotten here. */
    @Override
    protected void roundsDone(Set<Integer> owned) {
        int partitions = partitionCount();
        if (partitions > 0) {
            tracker.discardChanges(hash -> !owned.contains(PartitionOwnership.partitionOf(hash, partitions)));
        }
    }
}
