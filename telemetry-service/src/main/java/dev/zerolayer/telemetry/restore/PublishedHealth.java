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
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * What this service published on {@code telemetry.node-health.v1} before it started, read back once at start (every
 * partition up to the end offsets of that moment), then held still: the service is the topic's only writer, so it
 * never needs to read its own records again. The active fallback policy is read first, so that nothing is judged or
 * published under the built-in policy after a restart. Sample consumption waits until both read-backs are done.
 */
public class PublishedHealth implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(PublishedHealth.class);

    private final TopicGuard guard;
    private final Clock clock;
    private final Counter skipped;
    private final Map<String, NodeHealth> records = new ConcurrentHashMap<>();
    private final CountDownLatch restored = new CountDownLatch(1);
    private final StartupStep step;
    private final Consumer<FallbackPolicy> policy;
    private volatile Runnable afterRestore = () -> { };
    private volatile Instant restoredAt;
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

    /** Runs once the records are read back, before sample consumption starts (registers the inventory nodes). */
    public void afterRestore(Runnable action) {
        this.afterRestore = action;
    }

    /** The last record published for a node before this start, if any. */
    public Optional<NodeHealth> lastPublished(String nodeId) {
        return Optional.ofNullable(records.get(nodeId));
    }

    /** Blocks the calling consumer until the read-back is done. */
    public void awaitRestored() {
        try {
            restored.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the node-health read-back", e);
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
        int read = CompactedTopicReader.of(guard).readToEnd(Topics.TELEMETRY_NODE_HEALTH_TOPIC, "telemetry-service",
                this::apply, (record, e) -> {
                    skipped.increment();
                    log.warn("skipped unreadable node-health record, partition {} offset {}: {}",
                            record.partition(), record.offset(), e.getMessage());
                }, step::isRunning);
        restoreMillis = (System.nanoTime() - started) / 1_000_000;
        restoredAt = clock.instant();
        log.info("read back {} node-health records ({} nodes) in {} ms", read, records.size(), restoreMillis);
        afterRestore.run();
        restored.countDown();
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
        step.stop();
    }

    @Override
    public boolean isRunning() {
        return step.isRunning();
    }
}
