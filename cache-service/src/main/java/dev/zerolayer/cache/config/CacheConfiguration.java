package dev.zerolayer.cache.config;

import dev.zerolayer.cache.bridge.VllmKvBridge;
import dev.zerolayer.cache.bridge.VllmRelays;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.index.IndexView;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.lookup.PrefixLookup;
import dev.zerolayer.cache.nodes.Maintenance;
import dev.zerolayer.cache.nodes.NodeStates;
import dev.zerolayer.cache.ownership.CacheOwners;
import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.cache.restore.StateRestorer;
import dev.zerolayer.cache.session.SessionOwners;
import dev.zerolayer.cache.session.SessionRules;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.cache.stats.HitRatioWindow;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.InboundRecord;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The service's beans: consumers (bound in application.yml), the partition owners of the index and the sessions, this
 * replica's view of the index, restore, and the vLLM relays (with their nodes' events partitions).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheProperties.class)
public class CacheConfiguration {

    @Bean
    BlockIndex blockIndex(CacheProperties properties) {
        return new BlockIndex(properties.expectedBlocks());
    }

    @Bean
    RestoreGate restoreGate() {
        return new RestoreGate();
    }

    @Bean
    NodeStates nodeStates(CacheProperties properties, CompactedView<NodeHealth> nodeHealth) {
        NodeStates states = new NodeStates(properties.session().stickyMaxLoad());
        nodeHealth.onUpdate(states::update);
        return states;
    }

    @Bean
    SessionTracker sessionTracker(CacheProperties properties, NodeStates states) {
        CacheProperties.Session s = properties.session();
        return new SessionTracker(new SessionRules(s.prefixBlocks(), s.recentPrefixes(), s.similarity(),
                s.minSharedBlocks(), s.prewarmStreak(), s.prewarmInterval(), s.prewarmMaxBlocks(), s.moveAfter(),
                s.idleTtl(), s.maxSessions()), states::canStick);
    }

    @Bean
    HitRatioWindow hitRatioWindow(Clock clock, CacheProperties properties) {
        return new HitRatioWindow(clock, properties.hitWindow());
    }

    @Bean
    StateRestorer stateRestorer(TopicGuard guard, IndexView view, SessionTracker sessions, NodeStates states,
            RestoreGate gate, Clock clock, MeterRegistry meters) {
        return new StateRestorer(guard, view, sessions, states::update, gate, clock, meters);
    }

    @Bean
    Maintenance maintenance(SessionTracker sessions, Clock clock, CacheProperties properties) {
        return new Maintenance(sessions, clock, properties.maintenanceInterval());
    }

    @Bean
    DeadLetters deadLetters(StreamBridge bridge) {
        return new DeadLetters(bridge, Topics.CACHE);
    }

    /** This replica's view of the published index (lookups, stats), read from {@code cache.kv-index.v1}. */
    @Bean
    IndexView indexView(BlockIndex index, RestoreGate gate, TopicGuard guard) {
        return new IndexView(index, gate, guard.bootstrapServers(), guard.clientProperties());
    }

    /**
     * The owners of {@code cache.kv-events.v1}'s partitions: each applies its nodes' KV events and estimates and
     * alone publishes their holdings (transactional id {@code cache-service.kv-q<partition>}).
     */
    @Bean
    NodeOwners nodeOwners(ReplicaId replica, TopicGuard guard, NodeStates states, DeadLetters deadLetters,
            VllmRelays relays, CacheProperties properties, Clock clock, MeterRegistry meters) {
        CacheProperties.Approximate approximate = properties.approximate();
        return new NodeOwners(replica.value(), guard.bootstrapServers(), guard.clientProperties(),
                q -> TermWriter.named("cache-service.kv-q" + q, guard, meters),
                Topics.CACHE_KV_HOLDINGS_TOPIC.partitions(), properties.maxPublishPerTick(),
                properties.publishInterval(), properties.ownerTimeout(),
                new NodeOwners.Estimates(approximate.ttl(), approximate.maxBlocksPerDecision(),
                        approximate.maxBlocksPerNode()), properties.reportingWindow(),
                node -> states.downFor(node, properties.downGrace(), clock.instant()),
                (record, reason) -> deadLetters.send(new InboundRecord(record.topic(), record.partition(),
                        record.offset(), RecordKeys.text(record.key()), record.timestamp(), record.value()), reason),
                relays, clock, meters);
    }

    /**
     * The owners of {@code cache.kv-holdings.v1}'s partitions: each folds its blocks' holdings and alone publishes
     * their index records (transactional id {@code cache-service.index-p<partition>}).
     */
    @Bean
    BlockOwners blockOwners(ReplicaId replica, TopicGuard guard, CacheProperties properties, Clock clock,
            MeterRegistry meters) {
        return new BlockOwners(replica.value(), guard.bootstrapServers(), guard.clientProperties(),
                p -> TermWriter.named("cache-service.index-p" + p, guard, meters),
                Topics.CACHE_KV_EVENTS_TOPIC.partitions(), properties.maxPublishPerTick(),
                properties.publishInterval(), properties.ownerTimeout(), clock);
    }

    /**
     * The owners of {@code cache.sessions.v1}'s partitions: each publishes its sessions and the prewarm commands they
     * trigger (transactional id {@code cache-service.sessions-p<partition>}).
     */
    @Bean
    SessionOwners sessionOwners(ReplicaId replica, TopicGuard guard, SessionTracker sessions,
            CacheProperties properties, Clock clock, MeterRegistry meters) {
        return new SessionOwners(replica.value(), guard.bootstrapServers(), guard.clientProperties(),
                p -> TermWriter.named("cache-service.sessions-p" + p, guard, meters), sessions,
                properties.session().maxQueuedPrewarms(), properties.publishInterval(), properties.ownerTimeout(),
                clock, meters);
    }

    @Bean
    CacheOwners cacheOwners(NodeOwners nodes, BlockOwners blocks, SessionOwners sessions, RestoreGate gate) {
        return new CacheOwners(nodes, blocks, sessions, gate);
    }

    @Bean
    DecisionsPerNode routerDecisions(EventReader reader, DeadLetters deadLetters, RestoreGate gate, Clock clock,
            HitRatioWindow hits, NodeOwners nodes, SessionTracker sessions, SessionOwners owners) {
        return new DecisionsPerNode(reader, deadLetters, gate, clock, hits, nodes::observe, sessions,
                owners::prewarm);
    }

    @Bean
    CompactedView<NodeHealth> nodeHealth(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader, clock);
    }

    @Bean
    PrefixLookup prefixLookup(CacheProperties properties, BlockIndex index) {
        return new PrefixLookup(TokenCounter.defaultCounter(),
                new FastBlockHasher(properties.blockSize(), properties.hashSeed()), index);
    }

    /** The bridged vLLM nodes' relays, each run by the owner of its node's events partition. */
    @Bean
    VllmRelays vllmRelays(CacheProperties properties, Clock clock, MeterRegistry meters) {
        return new VllmRelays(properties.vllmBridge().endpoints().stream()
                .map(e -> new VllmKvBridge.Endpoint(e.nodeId(), e.address(), e.topic())).toList(), clock,
                properties.vllmBridge().maxQueued(), properties.vllmBridge().handshakeTimeout(), meters);
    }
}
