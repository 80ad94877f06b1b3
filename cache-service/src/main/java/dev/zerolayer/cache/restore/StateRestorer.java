package dev.zerolayer.cache.restore;

import dev.zerolayer.cache.index.IndexView;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * On start, once the topics are verified, reads back what this service published before — {@code cache.kv-index.v1}
 * and {@code cache.sessions.v1}, every partition from the beginning up to the end offsets seen at start — into this
 * replica's view of the index and the session tracker, and the node states of {@code telemetry.node-health.v1} (so
 * that the partitions' owners know which nodes are DOWN before they take over), then opens the gate for the stream
 * consumers, the publisher and the owners. Records it cannot read are skipped and counted; a broker failure retries.
 */
public class StateRestorer implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(StateRestorer.class);

    private final TopicGuard guard;
    private final IndexView view;
    private final SessionTracker sessions;
    private final Consumer<NodeHealth> nodeHealth;
    private final RestoreGate gate;
    private final Clock clock;
    private final Counter skipped;
    private final StartupStep step;
    private volatile Instant restoredAt;
    private volatile Restored restored;

    /** @param nodeHealth takes each node-health record read back before the gate opens */
    public StateRestorer(TopicGuard guard, IndexView view, SessionTracker sessions,
            Consumer<NodeHealth> nodeHealth, RestoreGate gate, Clock clock, MeterRegistry meters) {
        this.nodeHealth = nodeHealth;
        this.guard = guard;
        this.view = view;
        this.sessions = sessions;
        this.gate = gate;
        this.clock = clock;
        this.skipped = Counter.builder("zerolayer.cache.restore.skipped")
                .description("Records of the cache's own compacted topics that could not be read back").register(meters);
        this.step = new StartupStep("cache-restore", guard, this::restore);
    }

    /** What was read back: index blocks held and sessions. */
    public record Restored(int blocks, int sessions, long millis) {
    }

    @Override
    public void start() {
        step.start();
    }

    /** Reads the three topics back, each to the end offsets of now, then opens the gate. */
    private void restore() {
        long started = System.nanoTime();
        int[] blocks = new int[1];
        view.restoredUpTo(readAll(Topics.CACHE_KV_INDEX_TOPIC, this::restoreBlock,
                blocks));
        int restoredSessions = readAll(Topics.CACHE_SESSIONS_TOPIC, this::restoreSession);
        readAll(Topics.TELEMETRY_NODE_HEALTH_TOPIC, (key, health) -> {
            if (health != null) {
                nodeHealth.accept(health);
            }
        });
        restored = new Restored(view.index().blocks(), sessions.size(),
                (System.nanoTime() - started) / 1_000_000);
        restoredAt = clock.instant();
        log.info("restored {} index records ({} blocks held) and {} session records in {} ms", blocks[0],
                restored.blocks(), restoredSessions, restored.millis());
        gate.open();
    }

    private void restoreBlock(String key, KvIndexEntry entry) {
        long block = Long.parseUnsignedLong(key);
        if (entry == null) {
            view.index().load(block, List.of());
            return;
        }
        view.index().load(block, entry.nodes());
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
        int[] count = new int[1];
        readAll(topic, apply, count);
        return count[0];
    }

    /** As {@link #readAll(TopicSpec, BiConsumer)}, counting into {@code count}; returns each partition's end offset. */
    private <T extends Event> Map<Integer, Long> readAll(TopicSpec<T> topic, BiConsumer<String, T> apply,
            int[] count) {
        return CompactedTopicReader.of(guard).readPartitionsToEnd(topic, "cache-service", null, (record, value) -> {
            if (record.key() == null) {
                throw new InvalidEventException("record without a key");
            }
            apply.accept(RecordKeys.text(record.key()), value);
            count[0]++;
        }, (record, e) -> {
            if (!(e instanceof InvalidEventException || e instanceof NumberFormatException)) {
                throw e;
            }
            skipped.increment();
            log.warn("skipped unreadable record {} partition {} offset {}: {}", topic.name(), record.partition(),
                    record.offset(), e.getMessage());
        }, step::isRunning);
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
