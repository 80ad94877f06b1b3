package dev.zerolayer.cache.restore;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * On start, once the topics are verified, reads back what this service published before — {@code cache.kv-index.v1}
 * and {@code cache.sessions.v1}, every partition from the beginning up to the end offsets seen at start — into the
 * index and the session tracker, and the node states of {@code telemetry.node-health.v1} (so that the replay knows
 * which nodes are DOWN), replays the KV events of the retention on top, then opens the gate for the stream consumers
 * and the publisher (the consumers see the replayed events again and drop them as already applied). Records it cannot
 * read are skipped and counted; a broker failure retries.
 */
public class StateRestorer implements SmartLifecycle, HealthIndicator {

    /** Applies one KV event of the retention read back at start, with its position. */
    @FunctionalInterface
    public interface KvEventReplay {
        void replay(KvCacheEvent event, int partition, long offset);
    }

    private static final Logger log = LoggerFactory.getLogger(StateRestorer.class);

    private final TopicGuard guard;
    private final BlockIndex index;
    private final SessionTracker sessions;
    private final Consumer<NodeHealth> nodeHealth;
    private final KvEventReplay kvEvents;
    private final RestoreGate gate;
    private final Clock clock;
    private final Counter skipped;
    private final StartupStep step;
    private volatile Instant restoredAt;
    private volatile Restored restored;

    public StateRestorer(TopicGuard guard, BlockIndex index, SessionTracker sessions, RestoreGate gate, Clock clock,
            MeterRegistry meters) {
        this(guard, index, sessions, health -> { }, gate, clock, meters);
    }

    /** @param nodeHealth takes each node-health record read back before the gate opens */
    public StateRestorer(TopicGuard guard, BlockIndex index, SessionTracker sessions,
            Consumer<NodeHealth> nodeHealth, RestoreGate gate, Clock clock, MeterRegistry meters) {
        this(guard, index, sessions, nodeHealth, (event, partition, offset) -> { }, gate, clock, meters);
    }

    /**
     * @param nodeHealth takes each node-health record read back before the gate opens
     * @param kvEvents   applies each KV event of the retention, replayed before the gate opens (after node health, so
     *     that a node DOWN past its grace does not get its blocks back)
     */
    public StateRestorer(TopicGuard guard, BlockIndex index, SessionTracker sessions,
            Consumer<NodeHealth> nodeHealth, KvEventReplay kvEvents, RestoreGate gate, Clock clock,
            MeterRegistry meters) {
        this.nodeHealth = nodeHealth;
        this.kvEvents = kvEvents;
        this.guard = guard;
        this.index = index;
        this.sessions = sessions;
        this.gate = gate;
        this.clock = clock;
        this.skipped = Counter.builder("zerolayer.cache.restore.skipped")
                .description("Records of the cache's own compacted topics that could not be read back").register(meters);
        this.step = new StartupStep("cache-restore", guard, this::restore);
    }

    /** What was read back: index blocks held and sessions, and the nodes named in the index. */
    public record Restored(int blocks, int sessions, Set<String> nodes, long millis) {
    }

    @Override
    public void start() {
        step.start();
    }

    /**
     * Reads the three topics back and replays the KV events, each to the end offsets of now, then opens the gate for
     * the stream consumers (and the publisher).
     */
    private void restore() {
        long started = System.nanoTime();
        Set<String> nodes = new HashSet<>();
        int blocks = readAll(Topics.CACHE_KV_INDEX_TOPIC, (key, entry) -> restoreBlock(key, entry, nodes));
        int restoredSessions = readAll(Topics.CACHE_SESSIONS_TOPIC, this::restoreSession);
        readAll(Topics.TELEMETRY_NODE_HEALTH_TOPIC, (key, health) -> {
            if (health != null) {
                nodeHealth.accept(health);
            }
        });
        // The KV events too, before the gate opens and anything is published: the publisher then sends only the net
        // change of the whole replay. Replayed while publishing, a block stored and later removed by the replayed
        // events could go out as held for a moment (the stream consumers see these events again and drop them as
        // already applied).
        CompactedTopicReader.of(guard).readRecordsToEnd(Topics.CACHE_KV_EVENTS_TOPIC, "cache-service",
                (record, event) -> {
            if (event != null) {
                kvEvents.replay(event, record.partition(), record.offset());
            }
        }, (record, e) -> {
            if (!(e instanceof InvalidEventException)) {
                throw e;
            }
            // left to the stream consumer, which dead-letters it
            log.warn("KV event {} partition {} offset {} not replayed: {}", Topics.CACHE_KV_EVENTS,
                    record.partition(), record.offset(), e.getMessage());
        }, step::isRunning);
        restored = new Restored(index.blocks(), sessions.size(), Set.copyOf(nodes),
                (System.nanoTime() - started) / 1_000_000);
        restoredAt = clock.instant();
        log.info("restored {} index records ({} blocks held) and {} session records in {} ms", blocks,
                restored.blocks(), restoredSessions, restored.millis());
        gate.open();
    }

    private void restoreBlock(String key, KvIndexEntry entry, Set<String> nodes) {
        long block = Long.parseUnsignedLong(key);
        if (entry == null) {
            index.load(block, List.of());
            return;
        }
        nodes.addAll(entry.nodes());
        index.load(block, entry.nodes());
    }

    private void restoreSession(String key, SessionEntry entry) {
        if (entry == null) {
            sessions.drop(key);
            return;
        }
        sessions.restore(entry);
    }

    /** Reads a compacted topic to its end with the binder's client settings (TLS, SASL) through the platform reader. */
    private <T extends Event> int readAll(TopicSpec<T> topic, BiConsumer<String, T> apply) {
        return CompactedTopicReader.of(guard).readToEnd(topic, "cache-service", (key, value) -> {
            if (key == null) {
                throw new InvalidEventException("record without a key");
            }
            apply.accept(key, value);
        }, (record, e) -> {
            if (!(e instanceof InvalidEventException || e instanceof NumberFormatException)) {
                throw e;
            }
            skipped.increment();
            log.warn("skipped unreadable record {} partition {} offset {}: {}", topic.name(), record.partition(),
                    record.offset(), e.getMessage());
        }, step::isRunning);
    }

    /** When the restore finished, or null while it runs. */
    public Instant restoredAt() {
        return restoredAt;
    }

    /** What was read back, or null while the restore runs. */
    public Restored restored() {
        return restored;
    }

    @Override
    public Health health() {
        Health.Builder health = gate.isOpen() ? Health.up() : Health.down();
        if (restored != null) {
            health.withDetail("blocks", restored.blocks()).withDetail("sessions", restored.sessions())
                    .withDetail("millis", restored.millis()).withDetail("at", String.valueOf(restoredAt));
        }
        if (step.problem() != null) {
            health.withDetail("problem", step.problem());
        }
        return health.build();
    }

    @Override
    public void stop() {
        step.stop();
    }

    @Override
    public boolean isRunning() {
        return step.isRunning();
    }
}
