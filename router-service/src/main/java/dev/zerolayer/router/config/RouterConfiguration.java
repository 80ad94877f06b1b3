package dev.zerolayer.router.config;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.policy.PolicyVersionHealthIndicator;
import dev.zerolayer.platform.replica.ReplicaAddress;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.api.GatewayHandler;
import dev.zerolayer.router.api.GatewayMetrics;
import dev.zerolayer.router.api.PeerForwarding;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.ApiKeysFile;
import dev.zerolayer.router.auth.KeyDemandExchange;
import dev.zerolayer.router.auth.PeerDemand;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.decision.PromptPrefixes;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.decision.ServedModelsHealth;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.EventLoops;
import dev.zerolayer.router.dispatch.Hedging;
import dev.zerolayer.router.dispatch.NodeCredentials;
import dev.zerolayer.router.dispatch.NodeGuards;
import dev.zerolayer.router.dispatch.UpstreamClient;
import dev.zerolayer.router.events.DecisionProducerConfig;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.models.ModelCatalogue;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.Fleet;
import dev.zerolayer.router.state.TtftLearner;
import dev.zerolayer.router.state.ViewsLoaded;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.SentPrefixes;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.ServedModels;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/** The router's compacted-topic views (one consumer bean each), the gateway built on them, and its collaborators; bindings are in application.yml. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RouterProperties.class)
public class RouterConfiguration {

    /** How often router replicas exchange their demand per API key, and how far back a replica's demand counts. */
    private static final java.time.Duration KEY_DEMAND_PERIOD = java.time.Duration.ofMillis(250);
    private static final java.time.Duration KEY_DEMAND_WINDOW = java.time.Duration.ofSeconds(1);

    @Bean
    CompactedView<NodeHealth> nodeHealth(EventReader reader, Clock clock) {
        // telemetry-service republishes every node at least every few seconds: a longer silence is a stale view
        return new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader, clock)
                .expectUpdatesEvery(java.time.Duration.ofMillis(PolicyDocument.defaults().thresholds().viewStaleMs()));
    }

    @Bean
    CompactedView<ComplexityModel> complexityModel(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.COMPLEXITY_MODEL_TOPIC, reader, clock);
    }

    @Bean
    CompactedView<KvIndexEntry> kvIndex(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.CACHE_KV_INDEX_TOPIC, reader, clock);
    }

    @Bean
    CompactedView<SessionEntry> sessions(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.CACHE_SESSIONS_TOPIC, reader, clock);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
    }

    /**
     * Readiness waits until every view has read its topic up to the end offsets of the start (health component
     * {@code viewsLoaded}); each binding's topic and group as the binder uses them.
     */
    @Bean
    ViewsLoaded viewsLoaded(TopicGuard guard,
            org.springframework.beans.factory.ObjectProvider<org.springframework.cloud.stream.config.BindingServiceProperties> bindings,
            Clock clock) {
        // looked up once the topics are verified, when the bindings' groups are settled
        return new ViewsLoaded(guard, () -> {
            java.util.Map<String, String> groupByTopic = new java.util.LinkedHashMap<>();
            for (String binding : java.util.List.of("nodeHealth-in-0", "complexityModel-in-0", "kvIndex-in-0",
                    "sessions-in-0", "fallbackPolicy-in-0")) {
                groupByTopic.put(bindings.getObject().getBindingDestination(binding),
                        bindings.getObject().getGroup(binding));
            }
            return groupByTopic;
        }, clock);
    }

    /** Replaces Boot's readiness indicator (same name): refusing traffic while the views load or the warm-up runs. */
    @Bean
    org.springframework.boot.health.application.ReadinessStateHealthIndicator readinessStateHealthIndicator(
            ViewsLoaded views, dev.zerolayer.router.warmup.WarmUp warmUp,
            org.springframework.boot.availability.ApplicationAvailability availability) {
        return views.readiness(availability, warmUp::done);
    }

    /** Health component {@code policy}: the fallback policy version this service runs on. */
    @Bean
    PolicyVersionHealthIndicator policyHealthIndicator(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new PolicyVersionHealthIndicator(fallbackPolicy);
    }

    @Bean
    ModelCatalogue modelCatalogue(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new ModelCatalogue(fallbackPolicy);
    }

    @Bean
    ActivePolicy activePolicy(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new ActivePolicy(fallbackPolicy);
    }

    @Bean
    NodeGuards nodeGuards(MeterRegistry meters) {
        return new NodeGuards(meters);
    }

    @Bean
    TtftLearner ttftLearner(MeterRegistry meters) {
        return new TtftLearner(meters);
    }

    @Bean
    Fleet fleet(CompactedView<NodeHealth> nodeHealth, NodeGuards guards, ActivePolicy policy, Clock clock,
            MeterRegistry meters, TtftLearner ttft) {
        Fleet fleet = new Fleet(nodeHealth, guards, policy, clock, ttft);
        io.micrometer.core.instrument.Gauge.builder("zerolayer_router_stale_node_records", fleet, Fleet::staleRecords)
                .description("node-health records older than the policy's viewStaleMs (routed on own observations)")
                .register(meters);
        return fleet;
    }

    /** Served models' tokenizers, loaded on one background thread when a node first names them. */
    @Bean
    ServedModels<ServedModel> servedModels(Clock clock) {
        return new ServedModels<>(ServedModel::load, daemon("served-model-loader"), clock::millis, 60_000);
    }

    /** Served models' state in health, and once a minute the models no node names any more dropped. */
    @Bean
    ServedModelsHealth servedModelsHealthIndicator(ServedModels<ServedModel> servedModels, Fleet fleet) {
        ServedModelsHealth health = new ServedModelsHealth(servedModels, fleet);
        daemon("served-model-tidy").scheduleWithFixedDelay(() -> {
            try {
                health.retainNamed();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(ServedModelsHealth.class).warn("served models not tidied: {}", e.toString());
            }
        }, 1, 1, TimeUnit.MINUTES);
        return health;
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Bean
    RequestRouter requestRouter(Fleet fleet, ActivePolicy policy, CompactedView<ComplexityModel> complexityModel,
            CompactedView<KvIndexEntry> kvIndex, RouterProperties properties, ServedModels<ServedModel> servedModels,
            Clock clock) {
        return routerOver(fleet, policy, complexityModel, kvIndex, properties, servedModels, clock);
    }

    /** The decision pipeline over these views, with the configured prefix matching ({@code servedModels} null: approximate only). */
    static RequestRouter routerOver(Fleet fleet, ActivePolicy policy, CompactedView<ComplexityModel> complexityModel,
            CompactedView<KvIndexEntry> kvIndex, RouterProperties properties, ServedModels<ServedModel> servedModels,
            Clock clock) {
        return new RequestRouter(fleet, policy, complexityModel, new PromptPrefixes(kvIndex,
                new FastBlockHasher(properties.prefixBlockSize(), properties.prefixHashSeed()),
                properties.prefixMaxBlocks(), properties.cacheAware(),
                properties.exactPrefixes() ? servedModels : null,
                new SentPrefixes(properties.approximateTtl().toMillis(), properties.prefixMaxBlocks(),
                        properties.approximateBlocks(), clock::millis)));
    }

    /** The HTTP server's event loops (none without a Reactor Netty server, e.g. in a mock environment). */
    @Bean
    EventLoops eventLoops(ObjectProvider<ReactorResourceFactory> resources) {
        ReactorResourceFactory factory = resources.getIfAvailable();
        return factory == null ? EventLoops.none() : new EventLoops(factory.getLoopResources());
    }

    @Bean
    UpstreamClient upstreamClient(RouterProperties properties, EventLoops eventLoops) {
        return new UpstreamClient(properties.connectTimeoutMs(), properties.maxUpstreamResponse().toBytes(),
                eventLoops);
    }

    @Bean
    Hedging hedging(MeterRegistry meters) {
        return new Hedging(meters);
    }

    @Bean
    Dispatcher dispatcher(UpstreamClient client, NodeGuards guards, EventLoops eventLoops, Hedging hedging) {
        return new Dispatcher(client, guards, eventLoops, hedging);
    }

    @Bean
    ApiKeyAuthenticator apiKeyAuthenticator(ZeroLayerProperties properties, RouterProperties router,
            MeterRegistry meters) {
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(properties.apiKeys(),
                !router.apiKeysFile().isBlank());
        io.micrometer.core.instrument.Gauge.builder("zerolayer_router_api_keys", authenticator,
                ApiKeyAuthenticator::keyCount).description("client API keys accepted now").register(meters);
        return authenticator;
    }

    /** The client keys file, read at start (the router does not start with a bad one) and polled for changes. */
    @Bean(destroyMethod = "close")
    @org.springframework.boot.autoconfigure.condition.ConditionalOnExpression(
            "T(org.springframework.util.StringUtils).hasText(environment.getProperty('zerolayer.router.api-keys-file'))")
    ApiKeysFile apiKeysFile(RouterProperties router, ApiKeyAuthenticator authenticator, Clock clock,
            MeterRegistry meters) {
        ApiKeysFile file = new ApiKeysFile(java.nio.file.Path.of(router.apiKeysFile()), authenticator, clock)
                .watchEvery(router.apiKeysFilePoll());
        io.micrometer.core.instrument.FunctionCounter.builder("zerolayer_router_api_keys_file_refused", file,
                ApiKeysFile::refusals).description("keys file versions refused for a bad line (old keys kept)")
                .register(meters);
        return file;
    }

    @Bean
    RateLimits rateLimits(RouterProperties properties, ActivePolicy policy, MeterRegistry meters) {
        return new RateLimits(properties.requestsPerSecond(), policy, meters);
    }

    @Bean
    DecisionPublisher decisionPublisher(RouterProperties properties, TopicGuard guard, MeterRegistry meters,
            org.springframework.core.env.Environment environment,
            @org.springframework.beans.factory.annotation.Value("${zerolayer.topic.router-decisions}") String topic) {
        java.util.Map<String, String> producerProperties = producerProperties(environment);
        return new DecisionPublisher(properties.eventBufferSize(), topic, () -> new KafkaProducer<>(
                DecisionProducerConfig.of(guard.bootstrapServers(), guard.clientProperties(), producerProperties),
                new ByteArraySerializer(), new ByteArraySerializer()), guard::ready, meters);
    }

    /** The binder's producer properties as the operator set them, for the router's own producers. */
    private static java.util.Map<String, String> producerProperties(
            org.springframework.core.env.Environment environment) {
        return org.springframework.boot.context.properties.bind.Binder.get(environment)
                .bind("spring.cloud.stream.kafka.binder.producer-properties",
                        org.springframework.boot.context.properties.bind.Bindable.mapOf(String.class, String.class))
                .orElse(java.util.Map.of());
    }

    /** The other router replicas' demand per API key (binding {@code keyDemand-in-0}, from the latest offset). */
    @Bean
    PeerDemand keyDemand(EventReader reader, ReplicaId replica, Clock clock) {
        return new PeerDemand(reader, replica.value(), KEY_DEMAND_WINDOW, clock);
    }

    /** Publishes this replica's demand per API key and sets its part of each key's rate limit. */
    @Bean
    KeyDemandExchange keyDemandExchange(RateLimits rateLimits, PeerDemand keyDemand, TopicGuard guard,
            ReplicaId replica, Clock clock, MeterRegistry meters, org.springframework.core.env.Environment environment,
            @org.springframework.beans.factory.annotation.Value("${zerolayer.topic.router-key-demand}") String topic) {
        java.util.Map<String, String> producerProperties = producerProperties(environment);
        return new KeyDemandExchange(rateLimits, keyDemand, () -> {
            java.util.Map<String, Object> config = new java.util.HashMap<>(DecisionProducerConfig.of(
                    guard.bootstrapServers(), guard.clientProperties(), producerProperties));
            config.put(org.apache.kafka.clients.producer.ProducerConfig.CLIENT_ID_CONFIG,
                    "zerolayer-router-key-demand");
            config.put(org.apache.kafka.clients.producer.ProducerConfig.LINGER_MS_CONFIG, "0");
            // a demand record is worth a second: never hold the exchange's thread, never retry one for long
            config.put(org.apache.kafka.clients.producer.ProducerConfig.MAX_BLOCK_MS_CONFIG, "200");
            config.put(org.apache.kafka.clients.producer.ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000");
            config.put(org.apache.kafka.clients.producer.ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "2000");
            return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        }, topic, replica.value(), KEY_DEMAND_PERIOD, KEY_DEMAND_WINDOW, clock, meters);
    }

    @Bean
    GatewayMetrics gatewayMetrics(MeterRegistry meters, TtftLearner ttft) {
        return new GatewayMetrics(meters, ttft);
    }

    /**
     * Responses output items kept for later {@code item_reference}s (in memory, bounded, expiring), their ids sealed
     * with this replica's address under a key the replicas share (derived from the admin token; none: this one's own).
     */
    @Bean
    ResponseItems responseItems(RouterProperties properties, ZeroLayerProperties zeroLayer, ReplicaAddress address,
            Clock clock, MeterRegistry meters) {
        SealedAddress seal = SealedAddress.fromSecret(zeroLayer.adminToken());
        if (!seal.shared()) {
            LoggerFactory.getLogger(ResponseItems.class).warn("Responses items are not passed between router "
                    + "replicas: no admin token of at least {} characters to derive their shared key from",
                    SealedAddress.MIN_SECRET);
        }
        ResponseItems items = new ResponseItems(properties.responseItems(), properties.responseItemsTtl(),
                properties.responsesKept().toBytes(), clock, seal, address);
        io.micrometer.core.instrument.Gauge.builder("zerolayer_router_response_items", items, ResponseItems::size)
                .description("Responses output items held for item references").register(meters);
        io.micrometer.core.instrument.Gauge.builder("zerolayer_router_stored_responses", items,
                        ResponseItems::responses)
                .description("Responses answers held for previous_response_id").register(meters);
        return items;
    }

    @Bean
    GatewayHandler gatewayHandler(ApiKeyAuthenticator authenticator, RateLimits rateLimits, RequestRouter router,
            Dispatcher dispatcher, ActivePolicy policy, CompactedView<SessionEntry> sessions,
            DecisionPublisher publisher, GatewayMetrics metrics, RouterProperties properties, RequestTracing tracing,
            ResponseItems responseItems, ReplicaId replica, ReactorResourceFactory resources, MeterRegistry meters) {
        WebClient peers = WebClient.builder().clientConnector(new ReactorClientHttpConnector(resources,
                http -> http.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000))).build();
        return new GatewayHandler(authenticator, rateLimits, router, dispatcher, policy, sessions, publisher, metrics,
                properties.maxRequestBody().toBytes(), tracing, responseItems,
                new NodeCredentials(properties.upstreamCredentials()),
                // the holder bounds its own answer (deadlineMs + max_tokens x answerMsPerToken; a whole answer's
                // headers come when it is complete): this is a backstop, as long as the items are kept
                new PeerForwarding(peers, replica.value(), responseItems::peerProof, properties.responseItemsTtl(),
                        meters));
    }

    @Bean
    RequestTracing requestTracing(io.micrometer.tracing.Tracer tracer,
            io.micrometer.tracing.propagation.Propagator propagator) {
        return new RequestTracing(tracer, propagator);
    }
}
