package dev.zerolayer.cache.restore;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * On start, once the topics are verified, reads back what this service published before — {@code cache.kv-index.v1}
 * and {@code cache.sessions.v1}, every partition from the beginning up to the end offsets seen at start — into the
 * index and the session tracker, then opens the gate for the stream consumers (which replay the KV events of the
 * retention on top, see application.yml). Records it cannot read are skipped and counted; a broker failure retries.
 */
public class StateRestorer implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(StateRestorer.class);

    private final String bootstrapServers;
    private final TopicGuard guard;
    private final BlockIndex index;
    private final SessionTracker sessions;
    private final RestoreGate gate;
    private final Clock clock;
    private final Counter skipped;
    private volatile boolean running;
    private volatile Instant restoredAt;
    private volatile String problem;
    private volatile Restored restored;
    private Thread worker;

    public StateRestorer(String bootstrapServers, TopicGuard guard, BlockIndex index, SessionTracker sessions,
            RestoreGate gate, Clock clock, MeterRegistry meters) {
        this.bootstrapServers = bootstrapServers;
        this.guard = guard;
        this.index = index;
        this.sessions = sessions;
        this.gate = gate;
        this.clock = clock;
        this.skipped = Counter.builder("zerolayer.cache.restore.skipped")
                .description("Records of the cache's own compacted topics that could not be read back").register(meters);
    }

    /** What was read back: index blocks held and sessions, and the nodes named in the index. */
    public record Restored(int blocks, int sessions, Set<String> nodes, long millis) {
    }

    @Override
    public void start() {
        running = true;
        worker = new Thread(this::restoreUntilDone, "cache-restore");
        worker.setDaemon(true);
        worker.start();
    }

    private void restoreUntilDone() {
        Duration backoff = Duration.ofMillis(250);
        while (running && !gate.isOpen()) {
            try {
                guard.awaitReady();
                long started = System.nanoTime();
                Set<String> nodes = new HashSet<>();
                int blocks = readAll(Topics.CACHE_KV_INDEX, (key, value) -> restoreBlock(key, value, nodes));
                int restoredSessions = readAll(Topics.CACHE_SESSIONS, this::restoreSession);
                restored = new Restored(index.blocks(), sessions.size(), Set.copyOf(nodes),
                        (System.nanoTime() - started) / 1_000_000);
                restoredAt = clock.instant();
                problem = null;
                log.info("restored {} index records ({} blocks held) and {} session records in {} ms", blocks,
                        restored.blocks(), restoredSessions, restored.millis());
                gate.open();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                problem = e.toString();
                log.warn("state restore failed ({}); retrying in {} ms", e.toString(), backoff.toMillis());
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5)
                        : backoff.multipliedBy(2);
            }
        }
    }

    private void restoreBlock(String key, byte[] value, Set<String> nodes) {
        long block = Long.parseUnsignedLong(key);
        if (value == null) {
            index.load(block, List.of());
            return;
        }
        KvIndexEntry entry = EventCodec.decode(value, KvIndexEntry.class, key);
        nodes.addAll(entry.nodes());
        index.load(block, entry.nodes());
    }

    private void restoreSession(String key, byte[] value) {
        if (value == null) {
            sessions.drop(key);
            return;
        }
        sessions.restore(EventCodec.decode(value, SessionEntry.class, key));
    }

    private int readAll(String topic, BiConsumer<String, byte[]> apply) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "cache-service.restore." + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        int count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            while (running && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key() == null) {
                        skipped.increment();
                        continue;
                    }
                    try {
                        apply.accept(new String(record.key(), StandardCharsets.UTF_8), record.value());
                        count++;
                    } catch (InvalidEventException | NumberFormatException e) {
                        skipped.increment();
                        log.warn("skipped unreadable record {} partition {} offset {}: {}", topic, record.partition(),
                                record.offset(), e.getMessage());
                    }
                }
            }
        }
        return count;
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
        if (problem != null) {
            health.withDetail("problem", problem);
        }
        return health.build();
    }

    @Override
    public void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
