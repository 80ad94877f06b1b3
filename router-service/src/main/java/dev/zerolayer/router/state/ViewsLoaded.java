package dev.zerolayer.router.state;

import dev.zerolayer.platform.topics.StartOffsets;
import dev.zerolayer.platform.topics.StartupCatchUp;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.application.ReadinessStateHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * A router replica is ready once each compacted-topic view has read its topic up to the end offsets seen at the start
 * (its consumer group's committed offsets reached them, or only transaction markers lie between): until then readiness refuses traffic ({@link #readiness}), so
 * a load balancer never sends requests to a replica that would decide on part of its state (the built-in policy, half
 * the fleet).
 */
public class ViewsLoaded implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(ViewsLoaded.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final TopicGuard guard;
    private final Supplier<Map<String, String>> bindings;
    private volatile Map<String, String> groupByTopic;
    private final Clock clock;
    private final Instant createdAt;
    private volatile boolean running;
    private volatile boolean loaded;
    private volatile Duration loadedAfter;
    private volatile List<String> waitingFor;
    private volatile String problem;
    private Thread worker;

    /**
     * @param bindings each view's topic and the consumer group its binding reads it with (asked for once the topics
     *                 are verified)
     */
    public ViewsLoaded(TopicGuard guard, Supplier<Map<String, String>> bindings, Clock clock) {
        this.guard = guard;
        this.bindings = bindings;
        this.clock = clock;
        this.createdAt = clock.instant();
        this.waitingFor = List.of("(topics not verified yet)");
    }

    /**
     * Whether every partition has been read up to its target: a partition is done when it held nothing at the start
     * (end offset at or below its earliest offset) or its committed offset reached the end offset of the start.
     */
    public static boolean caughtUp(Map<TopicPartition, Long> endAtStart, Map<TopicPartition, Long> earliest,
            Map<TopicPartition, OffsetAndMetadata> committed) {
        return new StartOffsets(earliest, endAtStart).reachedBy(partition -> {
            OffsetAndMetadata position = committed.get(partition);
            return position == null ? null : position.offset();
        });
    }

    public boolean loaded() {
        return loaded;
    }

    /**
     * The readiness health indicator (component {@code readinessState}): the application's readiness, but
     * {@code REFUSING_TRAFFIC} while the views are loading.
     */
    public ReadinessStateHealthIndicator readiness(ApplicationAvailability availability) {
        return readiness(availability, () -> true);
    }

    /** As {@link #readiness(ApplicationAvailability)}, refusing traffic also while {@code alsoReady} is false. */
    public ReadinessStateHealthIndicator readiness(ApplicationAvailability availability,
            java.util.function.BooleanSupplier alsoReady) {
        return new ReadinessStateHealthIndicator(availability) {
            @Override
            protected AvailabilityState getState(ApplicationAvailability applicationAvailability) {
                return loaded && alsoReady.getAsBoolean() ? super.getState(applicationAvailability)
                        : ReadinessState.REFUSING_TRAFFIC;
            }
        };
    }

    void markLoaded(Duration after) {
        loadedAfter = after;
        waitingFor = List.of();
        loaded = true;
    }

    @Override
    public void start() {
        running = true;
        worker = new Thread(this::loadUntilCaughtUp, "views-loaded");
        worker.setDaemon(true);
        worker.start();
    }

    private void loadUntilCaughtUp() {
        try {
            guard.awaitReady();
            groupByTopic = Map.copyOf(bindings.get());
            waitingFor = List.copyOf(groupByTopic.keySet());
            try (StartupCatchUp catchUp = StartupCatchUp.of(guard)) {
                StartOffsets start = catchUp.startOffsets(groupByTopic.keySet(), failure -> problem = failure);
                problem = null;
                boolean caughtUp = catchUp.awaitCaughtUp(start,
                        topic -> catchUp.committedPastMarkers(groupByTopic.get(topic), start.of(topic)),
                        POLL, () -> running, behind -> waitingFor = behind, failure -> problem = failure);
                if (caughtUp) {
                    Duration after = Duration.between(createdAt, clock.instant());
                    markLoaded(after);
                    log.info("views loaded: {} topics read up to their end offsets of the start, {} ms after start; "
                            + "ready for traffic", groupByTopic.size(), after.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Health health() {
        if (loaded) {
            return Health.up().withDetail("loaded", true).withDetail("loadedAfterMs", loadedAfter.toMillis()).build();
        }
        Health.Builder health = Health.outOfService().withDetail("loaded", false).withDetail("waitingFor", waitingFor);
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

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 2000;
    }
}
