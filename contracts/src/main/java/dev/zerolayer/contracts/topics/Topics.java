package dev.zerolayer.contracts.topics;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.router.KeyDemand;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The only place topic names live: every topic of SPEC section 1 with its key, event type, single writer, readers and
 * policy; {@code <NAME>} is a topic's name (for YAML and logs), {@code <NAME>_TOPIC} its typed spec (for readers).
 */
public final class Topics {

    public static final String ROUTER_DECISIONS = "router.decisions.v1";
    public static final String TELEMETRY_SAMPLES = "telemetry.samples.v1";
    public static final String TELEMETRY_NODE_HEALTH = "telemetry.node-health.v1";
    public static final String COMPLEXITY_MODEL = "complexity.model.v1";
    public static final String CACHE_KV_EVENTS = "cache.kv-events.v1";
    public static final String CACHE_KV_INDEX = "cache.kv-index.v1";
    public static final String CACHE_KV_HOLDINGS = "cache.kv-holdings.v1";
    public static final String CACHE_SESSIONS = "cache.sessions.v1";
    public static final String CACHE_PREWARM = "cache.prewarm.v1";
    public static final String FALLBACK_POLICY = "fallback.policy.v1";
    public static final String FALLBACK_ALERTS = "fallback.alerts.v1";
    public static final String ROUTER_KEY_DEMAND = "router.key-demand.v1";

    /** Suffix of dead-letter topics: {@code <topic>.dlq.<consumer-group>}, one writer each. */
    public static final String DEAD_LETTER_INFIX = ".dlq.";

    public static final String ROUTER = "router-service";
    public static final String TELEMETRY = "telemetry-service";
    public static final String COMPLEXITY = "complexity-service";
    public static final String CACHE = "cache-service";
    public static final String FALLBACK = "fallback-service";
    public static final String SIMULATOR = "node-simulator";
    public static final String CONSOLE = "console-service";

    private static final Duration WEEK = Duration.ofDays(7);

    public static final TopicSpec<RoutingDecision> ROUTER_DECISIONS_TOPIC = new TopicSpec<>(ROUTER_DECISIONS,
            "request id", RoutingDecision.class, ROUTER, List.of(TELEMETRY, COMPLEXITY, CACHE, FALLBACK, CONSOLE),
            CleanupPolicy.DELETE, 6, WEEK);
    public static final TopicSpec<NodeTelemetry> TELEMETRY_SAMPLES_TOPIC = new TopicSpec<>(TELEMETRY_SAMPLES,
            "node id", NodeTelemetry.class, SIMULATOR, List.of(TELEMETRY, CONSOLE), CleanupPolicy.DELETE, 6,
            Duration.ofHours(6));
    public static final TopicSpec<NodeHealth> TELEMETRY_NODE_HEALTH_TOPIC = new TopicSpec<>(TELEMETRY_NODE_HEALTH,
            "node id", NodeHealth.class, TELEMETRY, List.of(TELEMETRY, ROUTER, CACHE, CONSOLE), CleanupPolicy.COMPACT, 3,
            WEEK);
    public static final TopicSpec<ComplexityModel> COMPLEXITY_MODEL_TOPIC = new TopicSpec<>(COMPLEXITY_MODEL,
            "\"active\"", ComplexityModel.class, COMPLEXITY, List.of(ROUTER), CleanupPolicy.COMPACT, 1, WEEK);
    public static final TopicSpec<KvCacheEvent> CACHE_KV_EVENTS_TOPIC = new TopicSpec<>(CACHE_KV_EVENTS,
            "node id", KvCacheEvent.class, SIMULATOR, List.of(CACHE), CleanupPolicy.DELETE, 6, Duration.ofDays(1));
    public static final TopicSpec<KvIndexEntry> CACHE_KV_INDEX_TOPIC = new TopicSpec<>(CACHE_KV_INDEX,
            "block hash (unsigned decimal)", KvIndexEntry.class, CACHE, List.of(ROUTER), CleanupPolicy.COMPACT, 6,
            WEEK);
    /** Which nodes of each KV-event partition hold each block: the node owners' output, the block owners' input. */
    public static final TopicSpec<KvHoldingEntry> CACHE_KV_HOLDINGS_TOPIC = new TopicSpec<>(CACHE_KV_HOLDINGS,
            "block hash (unsigned decimal)/events partition", KvHoldingEntry.class, CACHE, List.of(CACHE),
            CleanupPolicy.COMPACT, 6, WEEK);
    public static final TopicSpec<SessionEntry> CACHE_SESSIONS_TOPIC = new TopicSpec<>(CACHE_SESSIONS,
            "session hash", SessionEntry.class, CACHE, List.of(ROUTER), CleanupPolicy.COMPACT, 3, WEEK);
    public static final TopicSpec<PrewarmCommand> CACHE_PREWARM_TOPIC = new TopicSpec<>(CACHE_PREWARM,
            "node id", PrewarmCommand.class, CACHE, List.of(SIMULATOR), CleanupPolicy.DELETE, 3, Duration.ofHours(1));
    public static final TopicSpec<FallbackPolicy> FALLBACK_POLICY_TOPIC = new TopicSpec<>(FALLBACK_POLICY,
            "\"active\"", FallbackPolicy.class, FALLBACK, List.of(ROUTER, TELEMETRY, COMPLEXITY, CONSOLE),
            CleanupPolicy.COMPACT, 1, WEEK);
    public static final TopicSpec<FallbackAlert> FALLBACK_ALERTS_TOPIC = new TopicSpec<>(FALLBACK_ALERTS,
            "scope (tier:NAME or apiKey:ID)", FallbackAlert.class, FALLBACK, List.of(CONSOLE), CleanupPolicy.DELETE, 1,
            Duration.ofDays(30));

    /** Each router replica's requests per API key in its last period (rate limits split by demand); short-lived. */
    public static final TopicSpec<KeyDemand> ROUTER_KEY_DEMAND_TOPIC = new TopicSpec<>(ROUTER_KEY_DEMAND,
            "replica id", KeyDemand.class, ROUTER, List.of(ROUTER), CleanupPolicy.DELETE, 1, Duration.ofHours(1));

    public static final List<TopicSpec<?>> ALL = List.of(ROUTER_DECISIONS_TOPIC, TELEMETRY_SAMPLES_TOPIC,
            TELEMETRY_NODE_HEALTH_TOPIC, COMPLEXITY_MODEL_TOPIC, CACHE_KV_EVENTS_TOPIC, CACHE_KV_INDEX_TOPIC,
            CACHE_KV_HOLDINGS_TOPIC, CACHE_SESSIONS_TOPIC, CACHE_PREWARM_TOPIC, FALLBACK_POLICY_TOPIC,
            FALLBACK_ALERTS_TOPIC, ROUTER_KEY_DEMAND_TOPIC);

    private Topics() {
    }

    public static Optional<TopicSpec<?>> find(String name) {
        return ALL.stream().filter(spec -> spec.name().equals(name)).findFirst();
    }

    public static TopicSpec<?> spec(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("unknown topic " + name));
    }

    /** The topics the given service reads. */
    public static List<TopicSpec<?>> readBy(String service) {
        return ALL.stream().filter(spec -> spec.readers().contains(service)).toList();
    }

    /** The topics the given service writes. */
    public static List<TopicSpec<?>> writtenBy(String service) {
        return ALL.stream().filter(spec -> spec.writer().equals(service)).toList();
    }

    public static String deadLetterTopic(String topic, String consumerGroup) {
        return topic + DEAD_LETTER_INFIX + consumerGroup;
    }

    /** The dead-letter topic of a topic for one consumer group: as many partitions (records keep theirs), kept a week. */
    public static TopicSpec<?> deadLetterSpec(String topic, String consumerGroup) {
        return deadLetterOf(spec(topic), consumerGroup);
    }

    private static <T extends Event> TopicSpec<T> deadLetterOf(TopicSpec<T> source, String consumerGroup) {
        return new TopicSpec<>(deadLetterTopic(source.name(), consumerGroup), source.keyMeaning(),
                source.eventType(), consumerGroup, List.of(), CleanupPolicy.DELETE, source.partitions(), WEEK);
    }
}
