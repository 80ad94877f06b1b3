package dev.zerolayer.telemetry.restore;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * What the replicas of this service published on {@code telemetry.node-health.v1}, read back at start (every partition
 * up to the end offsets of that moment) and again whenever this replica is handed nodes another one ran, so that it
 * seeds them from their last record. The active fallback policy is read first, so that nothing is judged or published
 * under the built-in policy after a restart. Sample consumption waits until both read-backs are done.
 */
public class PublishedHealth implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(PublishedHealth.class);

    /** The longest a catch-up may take: a consumer's rebalance callback, and so its group, waits on it. */
    private static final java.time.Duration READ_LIMIT = java.time.Duration.ofSeconds(30);

    private final TopicGuard guard;
    private final Clock clock;
    private final Counter skipped;
    private final Map<String, NodeHealth> records = new ConcurrentHashMap<>();
    private final CountDownLatch restored = new CountDownLatch(1);
    private final StartupStep step;
    private final Consumer<FallbackPolicy> policy;
    private volatile Instant restoredAt;
    private volatile boolean stopping;
    private volatile long restoreMillis;

    public PublishedHealth(TopicGuard guard, Clock clock, MeterRegistry meters) {
        this(guard, clock, meters, ignored -> { });
    }

    /** @param policy receives the active fallback policy read back at start, before the node-health records */
    public PublishedHealth(TopicGuard guard, Clock clock, MeterRegistry meters, Consumer<FallbackPolicy> policy) {
        this.guard = guard;
        this.policy = policy;
        this.clock = clock;
        this.skipped = Counter.builder("zerolayer.telemetry.restore.skipped")
                .description("Records of telemetry.node-health.v1 that could not be read back at start")
                .register(meters);
        this.step = new StartupStep("node-health-restore", guard, this::restore);
    }

    /** The last record published for a node before this start, if any. */
    public Optional<NodeHealth> lastPublished(String nodeId) {
        return Optional.ofNullable(records.get(nodeId));
    }

    /**
     * Blocks the calling consumer until the read-back is done; returns false at once when the service is stopping
     * instead (a consumer thread parked here for good would keep its group waiting on it).
     */
    public boolean awaitRestored() {
        try {
            while (!restored.await(100, TimeUnit.MILLISECONDS)) {
                if (stopping) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public boolean isRestored() {
        return restored.getCount() == 0;
    }

    @Override
    public void start() {
        step.start();
    }

    /** Reads the topic back to the end offsets of now, then lets sample consumption begin. */
    private void restore() {
        long started = System.nanoTime();
        Map<String, FallbackPolicy> policies = new java.util.HashMap<>();
        CompactedTopicReader.of(guard).readToEnd(Topics.FALLBACK_POLICY_TOPIC, "telemetry-service", (key, value) -> {
            if (key != null && value != null) {
                policies.put(key, value);
            }
        }, (record, e) -> log.warn("skipped unreadable fallback-policy record, partition {} offset {}: {}",
                record.partition(), record.offset(), e.getMessage()), step::isRunning);
        policies.values().forEach(policy);
        int read = readNodeHealth(CompactedTopicReader.of(guard));
        restoreMillis = (System.nanoTime() - started) / 1_000_000;
        restoredAt = clock.instant();
        log.info("read back {} node-health records ({} nodes) in {} ms", read, records.size(), restoreMillis);
        restored.countDown();
    }

    /**
     * Reads the node-health topic again up to the end offsets of now (on the calling thread): after a rebalance, the
     * last records of the replica that ran the nodes before. Returns the records read.
     */
    public int catchUp() {
        long started = System.nanoTime();
        int read = readNodeHealth(CompactedTopicReader.of(guard).within(READ_LIMIT));
        log.info("caught up on {} node-health records ({} nodes) in {} ms", read, records.size(),
                (System.nanoTime() - started) / 1_000_000);
        return read;
    }

    private int readNodeHealth(CompactedTopicReader reader) {
        return reader.readToEnd(Topics.TELEMETRY_NODE_HEALTH_TOPIC, "telemetry-service",
                this::apply, (record, e) -> {
                    skipped.increment();
                    log.warn("skipped unreadable node-health record, partition {} offset {}: {}",
                            record.partition(), record.offset(), e.getMessage());
                }, step::isRunning);
    }

    private void apply(String key, NodeHealth value) {
        if (key == null) {
            throw new IllegalArgumentException("record without a key");
        }
        if (value == null) {
            records.remove(key);
            return;
        }
        records.put(key, value);
    }

    @Override
    public Health health() {
        Health.Builder health = isRestored() ? Health.up() : Health.down();
        health.withDetail("nodes", records.size());
        if (restoredAt != null) {
            health.withDetail("millis", restoreMillis).withDetail("at", restoredAt.toString());
        }
        if (step.problem() != null) {
            health.withDetail("problem", step.problem());
        }
        return health.build();
    }

    @Override
    public void stop() {
        stopping = true;
        step.stop();
    }

    @Override
    public boolean isRunning() {
        return step.isRunning();
    }
}
