package dev.zerolayer.cache.config;

import dev.zerolayer.cache.bridge.VllmKvBridge;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.ingest.ApproximateBlocks;
import dev.zerolayer.cache.ingest.KvEventIngest;
import dev.zerolayer.cache.ingest.NodeModes;
import dev.zerolayer.cache.lookup.PrefixLookup;
import dev.zerolayer.cache.nodes.Maintenance;
import dev.zerolayer.cache.nodes.NodeStates;
import dev.zerolayer.cache.publication.CachePublisher;
import dev.zerolayer.cache.publication.CacheTakeover;
import dev.zerolayer.cache.publication.KafkaOutbox;
import dev.zerolayer.cache.publication.Outbox;
import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.cache.restore.StateRestorer;
import dev.zerolayer.cache.session.SessionRules;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.cache.stats.HitRatioWindow;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.ReplicaAddress;
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

/** The service's beans: consumers (bound in application.yml), the index, sessions, publication, restore and bridge. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheProperties.class)
public class CacheConfiguration {

    @Bean
    BlockIndex blockIndex(CacheProperties properties) {
        return new BlockIndex(properties.expectedBlocks());
    }

    @Bean
    NodeModes nodeModes() {
        return new NodeModes();
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
    ApproximateBlocks approximateBlocks(BlockIndex index, NodeModes modes, CacheProperties properties) {
        CacheProperties.Approximate approximate = properties.approximate();
        return new ApproximateBlocks(index, modes, approximate.ttl(), approximate.maxBlocksPerDecision(),
                approximate.maxBlocksPerNode());
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

    /** The index, the sessions and prewarm commands go out through the leader's transactional writer (platform's). */
    @Bean
    Outbox outbox(TermWriter termWriter) {
        return new KafkaOutbox(termWriter);
    }

    @Bean
    Leadership leadership(ReplicaId replica, ReplicaAddress address, TopicGuard guard, ZeroLayerProperties platform,
            Clock clock) {
        return Leadership.over(Topics.CACHE_SESSIONS, platform, replica, address, guard, clock);
    }

    /** A publisher that writes nothing until {@link CacheTakeover} makes it write under this replica's term. */
    @Bean
    CachePublisher cachePublisher(BlockIndex index, SessionTracker sessions, Outbox outbox, Clock clock,
            CacheProperties properties, RestoreGate gate, MeterRegistry meters) {
        CachePublisher publisher = new CachePublisher(index, sessions, outbox, clock, properties.publishInterval(),
                properties.maxPublishPerTick(), properties.session().maxQueuedPrewarms(), gate::isOpen, meters);
        publisher.follow();
        return publisher;
    }

    @Bean
    CacheTakeover cacheTakeover(CachePublisher publisher, VllmKvBridge bridge, RestoreGate gate, TopicGuard guard,
            Leadership leadership, TermWriter termWriter) {
        return new CacheTakeover(publisher, bridge, gate, guard, leadership, termWriter);
    }

    @Bean
    StateRestorer stateRestorer(TopicGuard guard, BlockIndex index, SessionTracker sessions, NodeStates states,
            KvEventIngest kvEvents, RestoreGate gate, Clock clock, MeterRegistry meters) {
        return new StateRestorer(guard, index, sessions, states::update, kvEvents::replay, gate, clock, meters);
    }

    @Bean
    Maintenance maintenance(BlockIndex index, ApproximateBlocks approximate, NodeModes modes, NodeStates states,
            SessionTracker sessions, StateRestorer restorer, Clock clock, CacheProperties properties) {
        return new Maintenance(index, approximate, modes, states, sessions, restorer, clock,
                properties.maintenanceInterval(), properties.downGrace(), properties.approximate().ttl());
    }

    @Bean
    KvEventIngest kvEvents(EventReader reader, BlockIndex index, NodeModes modes, ApproximateBlocks approximate,
            RestoreGate gate, NodeStates states, Clock clock, CacheProperties properties, MeterRegistry meters) {
        return new KvEventIngest(reader, index, modes, approximate::forget, gate,
                node -> states.downFor(node, properties.downGrace(), clock.instant()), meters);
    }

    @Bean
    DecisionsPerNode routerDecisions(EventReader reader, StreamBridge bridge, RestoreGate gate, Clock clock,
            HitRatioWindow hits, ApproximateBlocks approximate, SessionTracker sessions, CachePublisher publisher) {
        return new DecisionsPerNode(reader, new DeadLetters(bridge, Topics.CACHE), gate, clock, hits, approximate,
                sessions, publisher::prewarm);
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

    @Bean
    VllmKvBridge vllmKvBridge(CacheProperties properties, TermWriter termWriter, Clock clock, MeterRegistry meters) {
        return new VllmKvBridge(properties.vllmBridge().endpoints().stream()
                .map(e -> new VllmKvBridge.Endpoint(e.nodeId(), e.address(), e.topic())).toList(),
                events -> termWriter.write(events.stream()
                        .map(event -> TermWriter.record(Topics.CACHE_KV_EVENTS, event)).toList())
                        == TermWriter.Outcome.COMMITTED, clock, properties.vllmBridge().maxQueued(),
                properties.vllmBridge().handshakeTimeout(), meters);
    }
}
