package dev.zerolayer.telemetry.config;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventPublisher;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.policy.PolicyVersionHealthIndicator;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.telemetry.health.HealthPublisher;
import dev.zerolayer.telemetry.health.HealthTicker;
import dev.zerolayer.telemetry.health.HealthTracker;
import dev.zerolayer.telemetry.health.KafkaHealthPublisher;
import dev.zerolayer.telemetry.health.WarmupProber;
import dev.zerolayer.telemetry.observation.RouterObservations;
import dev.zerolayer.telemetry.ownership.NodeHandover;
import dev.zerolayer.telemetry.ownership.OtherReplicasNodes;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.telemetry.registry.RegistrationValidator;
import dev.zerolayer.telemetry.registry.TelemetryIngest;
import dev.zerolayer.telemetry.restore.PublishedHealth;
import dev.zerolayer.telemetry.scrape.NodeScraper;
import dev.zerolayer.telemetry.scrape.ScrapeScheduler;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The service's beans: consumers (bound in application.yml), node ownership and its handover, the health tracker and its
 * ticker, prober and scrapers.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TelemetryProperties.class)
public class TelemetryConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TelemetryConfiguration.class);

    @Bean
    HealthPublisher healthPublisher(EventPublisher events) {
        return new KafkaHealthPublisher(events);
    }

    /** Which nodes this replica runs: those keyed to its partitions of the sample topic. */
    @Bean
    PartitionOwnership nodeOwnership(ReplicaId replica, MeterRegistry meters) {
        PartitionOwnership ownership = new PartitionOwnership(replica.value());
        Gauge.builder("zerolayer.telemetry.owned.partitions", ownership, o -> o.current().partitions().size())
                .description("Partitions of telemetry.samples.v1 whose nodes this replica runs").register(meters);
        Gauge.builder("zerolayer.telemetry.assignment.generation", ownership, o -> o.current().generation())
                .description("Consumer-group generation of this replica's sample partitions").register(meters);
        return ownership;
    }

    @Bean
    HealthTracker healthTracker(HealthPublisher publisher, Clock clock, TelemetryProperties properties,
            MeterRegistry meters, CompactedView<FallbackPolicy> fallbackPolicy, PartitionOwnership ownership) {
        HealthTracker tracker = new HealthTracker(publisher, clock, properties.heartbeat(),
                new HealthTracker.LoadChange(properties.loadChange(), properties.loadChangeInterval()), meters,
                ownership::writer, properties.backlogPause());
        fallbackPolicy.onUpdate(tracker::applyPolicy);
        return tracker;
    }

    /** Other replicas' nodes, live: in their clusters' load and in {@code /v1/nodes}. */
    @Bean
    OtherReplicasNodes nodeHealthView(EventReader reader, StreamBridge bridge, HealthTracker tracker) {
        return new OtherReplicasNodes(reader, new DeadLetters(bridge, Topics.TELEMETRY), tracker);
    }

    /** At each rebalance of the sample binding, releases the nodes this replica gave up and seeds those it gained. */
    @Bean
    NodeHandover nodeHandover(PartitionOwnership ownership, HealthTracker tracker, PublishedHealth publishedHealth,
            TelemetryIngest ingest, TelemetryProperties properties) {
        List<NodeRegistration> inventory = inventory(properties);
        return new NodeHandover(ownership, tracker, publishedHealth, () -> inventory.stream()
                .filter(node -> ownership.owns(node.nodeId()) && !tracker.runs(node.nodeId()))
                .forEach(node -> ingest.register(node)
                        .ifPresent(problem -> log.warn("inventory node {} refused: {}", node.nodeId(), problem))));
    }

    /** Health component {@code policy}: the fallback policy version this service runs on. */
    @Bean
    PolicyVersionHealthIndicator policyHealthIndicator(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new PolicyVersionHealthIndicator(fallbackPolicy);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
    }

    /** This service's own records published before this start: the history it restores after a restart. */
    @Bean
    PublishedHealth publishedHealth(TopicGuard guard, Clock clock, MeterRegistry meters, HealthTracker tracker) {
        return new PublishedHealth(guard, clock, meters, tracker::applyPolicy);
    }

    @Bean
    TelemetryIngest telemetrySamples(EventReader reader, StreamBridge bridge, HealthTracker tracker,
            TelemetryProperties properties, CompactedView<FallbackPolicy> fallbackPolicy,
            PublishedHealth publishedHealth, Clock clock, PartitionOwnership ownership) {
        return new TelemetryIngest(reader, new DeadLetters(bridge, Topics.TELEMETRY), new RegistrationValidator(
                properties.allowedUpstreamSchemes(), properties.allowedUpstreamHosts()), tracker, fallbackPolicy,
                publishedHealth, clock, properties.maxSampleSkew(), ownership::owns);
    }

    /** The configured nodes as registrations; one that does not make a valid registration is logged and left out. */
    private static List<NodeRegistration> inventory(TelemetryProperties properties) {
        List<NodeRegistration> registrations = new java.util.ArrayList<>();
        for (TelemetryProperties.InventoryNode node : properties.nodes()) {
            try {
                TelemetryProperties.PrefixCache cache = node.prefixCache();
                registrations.add(NodeRegistration.of(node.nodeId(), node.tier(), node.cluster(), node.standbyOf(),
                        node.upstreamBaseUrl(), UpstreamProtocol.valueOf(node.protocol().toUpperCase(Locale.ROOT)),
                        node.model(), node.capacity(), node.hardwareProfile()).withPrefixCache(cache == null
                                ? null : new PrefixCaching(cache.tokenizer(), cache.blockSize(),
                                        cache.hashAlgorithm(), cache.hashSeed())));
            } catch (RuntimeException e) {
                log.warn("inventory node {} refused: {}", node.nodeId(), e.getMessage());
            }
        }
        return List.copyOf(registrations);
    }

    @Bean
    RouterObservations routerDecisions(EventReader reader, StreamBridge bridge, HealthTracker tracker) {
        return new RouterObservations(reader, new DeadLetters(bridge, Topics.TELEMETRY), tracker);
    }

    @Bean
    WarmupProber warmupProber(TelemetryProperties properties, HealthTracker tracker) {
        return new WarmupProber(WebClient.builder(), properties.probeTimeout(), tracker);
    }

    @Bean
    HealthTicker healthTicker(HealthTracker tracker, WarmupProber prober, TopicGuard guard,
            TelemetryProperties properties) {
        return new HealthTicker(tracker, prober, guard, properties.tick());
    }

    @Bean
    ScrapeScheduler scrapeScheduler(TelemetryProperties properties, HealthTracker tracker,
            TopicGuard guard, MeterRegistry meters) {
        List<NodeScraper> scrapers = properties.nodes().stream()
                .filter(node -> node.dcgmUrl() != null || node.vllmUrl() != null)
                .map(node -> new NodeScraper(node, WebClient.builder(), properties.probeTimeout())).toList();
        return new ScrapeScheduler(scrapers, tracker, guard, properties.scrapeInterval(), meters);
    }
}
