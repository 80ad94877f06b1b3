package dev.zerolayer.router.config;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.api.GatewayHandler;
import dev.zerolayer.router.api.GatewayMetrics;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.EventLoops;
import dev.zerolayer.router.dispatch.Hedging;
import dev.zerolayer.router.dispatch.NodeCredentials;
import dev.zerolayer.router.dispatch.NodeGuards;
import dev.zerolayer.router.dispatch.UpstreamClient;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.Fleet;
import dev.zerolayer.router.state.TtftLearner;
import dev.zerolayer.router.state.ViewsLoaded;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.router.warmup.WarmUp;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.ServedModels;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The warm-up's gateway: the router's own classes over the router's views (read only) but a fleet of its own (the
 * router's nodes, served by the stand-in), the real upstream client, event loops and tracer (the warm-up's requests
 * arrive unsampled), a key made for this process, decisions published into a discarding producer, breakers, load and
 * meters of their own.
 */
@Configuration(proxyBeanMethods = false)
public class WarmUpConfiguration {

    @Bean
    WarmUp warmUp(RouterProperties properties, UpstreamClient upstream, EventLoops eventLoops, Clock clock,
            RequestTracing tracing, ApplicationContext context, CompactedView<NodeHealth> nodeHealth,
            CompactedView<ComplexityModel> complexityModel, CompactedView<KvIndexEntry> kvIndex,
            CompactedView<SessionEntry> sessions, ActivePolicy policy, ServedModels<ServedModel> servedModels,
            ViewsLoaded viewsLoaded) {
        // the same kind of registry as the router's, another instance: its meters are compiled, its counts kept apart
        MeterRegistry apart = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // the router's fleet, mirrored onto the stand-in node by the warm-up; the other views are the router's own,
        // only read
        CompactedView<NodeHealth> nodes = new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC,
                new EventReader(apart), clock);
        NodeGuards guards = new NodeGuards(apart);
        TtftLearner ttft = new TtftLearner(apart);
        Fleet fleet = new Fleet(nodes, guards, policy, clock, ttft);
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String key = "zl-warm-up-" + HexFormat.of().formatHex(secret);
        // decisions are encoded and handed to kafka-clients' in-memory producer (every send completed at once, what
        // it holds cleared as the warm-up goes): the publishing path is compiled, nothing reaches the broker
        MockProducer<byte[], byte[]> discarding = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        DecisionPublisher publisher = new DecisionPublisher(properties.eventBufferSize(),
                Topics.ROUTER_DECISIONS_TOPIC.name(), () -> discarding, () -> true, apart);
        GatewayHandler gateway = new GatewayHandler(ApiKeyAuthenticator.internal(key),
                new RateLimits(Integer.MAX_VALUE, policy, apart),
                RouterConfiguration.routerOver(fleet, policy, complexityModel, kvIndex, properties, servedModels, clock),
                new Dispatcher(upstream, guards, eventLoops, new Hedging(apart)), policy, sessions, publisher,
                new GatewayMetrics(apart, ttft), properties.maxRequestBody().toBytes(),
                tracing,
                // synthetic answers keep little: nobody goes on from them
                new ResponseItems(properties.responseItems(), properties.responseItemsTtl(), 1L << 20, clock,
                        SealedAddress.fromSecret(""), java.util.Optional::empty),
                new NodeCredentials(Map.of()), null);
        return new WarmUp(properties.warmUp(), gateway, nodes, nodeHealth, policy::document, viewsLoaded::loaded, key,
                List.of(publisher), discarding::clear,
                () -> context instanceof WebServerApplicationContext web && web.getWebServer() != null
                        ? web.getWebServer().getPort() : -1);
    }
}
