package dev.zerolayer.platform.config;

import dev.zerolayer.platform.admin.AdminGuard;
import dev.zerolayer.platform.events.EventPublisher;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.RawBytesConverter;
import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.platform.leader.LeaderLocator;
import dev.zerolayer.platform.leader.LeaderWrites;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.ReplicaAddress;
import dev.zerolayer.platform.topics.DeferredBindingRegistrar;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.platform.view.ViewsHealthIndicator;
import dev.zerolayer.platform.web.ApiErrorAdvice;
import dev.zerolayer.platform.web.ApiErrorWebHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/** Wires what every service shares: properties, clock, event reader and publisher, topic guard, views health, watchdog. */
@AutoConfiguration
@EnableConfigurationProperties(ZeroLayerProperties.class)
public class PlatformAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(PlatformAutoConfiguration.class);

    /** Exit code of a service that refuses to run on a topic with the wrong cleanup policy (EX_CONFIG). */
    public static final int EXIT_TOPIC_MISMATCH = 78;

    @Bean
    static DeferredBindingRegistrar deferredBindingRegistrar() {
        return new DeferredBindingRegistrar();
    }

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    EventReader eventReader(MeterRegistry registry) {
        return new EventReader(registry);
    }

    /** Consumers of {@code Message<byte[]>} get the record's bytes without a JSON conversion attempt first. */
    @Bean
    @ConditionalOnMissingBean
    RawBytesConverter rawBytesConverter() {
        return new RawBytesConverter();
    }

    @Bean
    @ConditionalOnMissingBean
    EventPublisher eventPublisher(org.springframework.cloud.stream.function.StreamBridge bridge, TopicGuard guard,
            MeterRegistry meters) {
        return new EventPublisher(bridge, guard, meters);
    }

    @Bean
    @ConditionalOnMissingBean
    dev.zerolayer.platform.replica.ReplicaId replicaId(ZeroLayerProperties properties) {
        return dev.zerolayer.platform.replica.ReplicaId.of(properties.replicaId());
    }

    @Bean
    @ConditionalOnMissingBean
    ReplicaAddress replicaAddress(ZeroLayerProperties properties) {
        return ReplicaAddress.of(properties.advertisedUrl());
    }

    @Bean
    TopicGuard topicGuard(ZeroLayerProperties properties, Environment environment, ApplicationContext context) {
        String servers = environment.getProperty("spring.cloud.stream.kafka.binder.brokers", "127.0.0.1:9092");
        java.util.Map<String, String> clientProperties = org.springframework.boot.context.properties.bind.Binder
                .get(environment).bind("spring.cloud.stream.kafka.binder.configuration",
                        org.springframework.boot.context.properties.bind.Bindable.mapOf(String.class, String.class))
                .orElse(java.util.Map.of());
        return new TopicGuard(properties, servers, clientProperties, () -> {
            int code = SpringApplication.exit(context, () -> EXIT_TOPIC_MISMATCH);
            if (!Boolean.getBoolean("zerolayer.no-exit")) {
                System.exit(code);
            }
        });
    }

    @Bean
    @ConditionalOnMissingBean
    AdminGuard adminGuard(ZeroLayerProperties properties) {
        return new AdminGuard(properties.adminToken());
    }

    /**
     * Every HTTP error of a reactive service (its own refusals, admin refusals, unknown paths, wrong methods, anything
     * unexpected) answered by one handler in the API error shape; a service may replace the handler with a subclass.
     */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class ApiErrorsWeb {

        @Bean
        @ConditionalOnMissingBean(ApiErrorWebHandler.class)
        ApiErrorWebHandler apiErrorWebHandler() {
            return new ApiErrorWebHandler();
        }

        @Bean
        ApiErrorAdvice apiErrorAdvice(ApiErrorWebHandler errors) {
            return new ApiErrorAdvice(errors);
        }
    }

    /** Every reactive service learns where it answers its peers once its server listens ({@link ReplicaAddress}). */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class ReplicaWeb {

        @Bean
        ApplicationListener<ReactiveWebServerInitializedEvent> replicaAddressListener(ReplicaAddress address) {
            return event -> {
                if (event.getApplicationContext().getServerNamespace() == null) { // not the management server
                    address.serverStarted(event.getWebServer().getPort());
                }
            };
        }
    }

    /**
     * A service that elects a leader announces where its replicas answer once the server listens; one that declares
     * its leader writes ({@link LeaderWrites}) has a follower pass them to the leader.
     */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnBean(Leadership.class)
    static class LeaderWeb {

        @Bean(destroyMethod = "close")
        @ConditionalOnBean(LeaderWrites.class)
        @ConditionalOnMissingBean
        LeaderLocator leaderLocator(Leadership leadership, TopicGuard guard) {
            return new LeaderLocator(leadership, guard, Duration.ofSeconds(3));
        }

        /** One lookup once the server listens, so the first write a follower passes on finds its client warm. */
        @Bean
        @ConditionalOnBean(LeaderLocator.class)
        ApplicationListener<ReactiveWebServerInitializedEvent> leaderLocatorPrimer(LeaderLocator locator) {
            return event -> locator.leader().onErrorResume(e -> Mono.empty()).subscribe();
        }

        @Bean
        @ConditionalOnBean(LeaderWrites.class)
        LeaderForwarding leaderForwarding(LeaderWrites writes, Leadership leadership, LeaderLocator locator,
                ZeroLayerProperties properties, ReactorResourceFactory resources, MeterRegistry meters) {
            int connectMillis = 2_000;
            WebClient client = WebClient.builder().clientConnector(new ReactorClientHttpConnector(resources,
                    http -> http.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis))).build();
            return new LeaderForwarding(writes, leadership, locator::leader, client, properties.leaderForwardTimeout(),
                    meters);
        }
    }

    /**
     * Binder consumers commit their position past a transaction's commit marker when they can tell it is safe
     * ({@code fixTxOffsets}; not always: a marker fetched on its own is missed): the leaders write in transactions
     * ({@code TermWriter}), and a group's lag would otherwise show the marker. The start-up catch-ups do not rely on
     * it ({@code StartupCatchUp.committedPastMarkers}).
     */
    @Bean
    @ConditionalOnMissingBean
    org.springframework.cloud.stream.config.ListenerContainerCustomizer<
            org.springframework.kafka.listener.AbstractMessageListenerContainer<?, ?>> transactionMarkerOffsets() {
        return (container, destination, group) -> container.getContainerProperties().setFixTxOffsets(true);
    }

    /**
     * The elected writer's transactional producer ({@code transactional.id} {@code <service>.leader}), for every
     * service that elects one: opened at the start of each term before the takeover read, so a former leader paused
     * past its term is fenced by the broker.
     */
    @Bean
    @ConditionalOnBean(Leadership.class)
    @ConditionalOnMissingBean
    TermWriter termWriter(ZeroLayerProperties properties, TopicGuard guard, MeterRegistry meters) {
        return TermWriter.of(properties.service(), guard, meters);
    }

    @Bean
    ViewsHealthIndicator viewsHealthIndicator(ObjectProvider<CompactedView<?>> views) {
        return new ViewsHealthIndicator(views.orderedStream().toList());
    }

    @Bean
    ParentWatchdog parentWatchdog(ZeroLayerProperties properties, ConfigurableApplicationContext context) {
        return new ParentWatchdog(properties.parentPid(), context);
    }

    /** Closes the service when the process that launched it is gone, so a killed local stack leaves nothing behind. */
    static final class ParentWatchdog {

        ParentWatchdog(Long parentPid, ConfigurableApplicationContext context) {
            if (parentPid == null) {
                return;
            }
            ProcessHandle.of(parentPid).ifPresentOrElse(
                    parent -> parent.onExit().thenRun(() -> exit(context, parentPid)),
                    () -> exit(context, parentPid));
        }

        private static void exit(ConfigurableApplicationContext context, long parentPid) {
            log.warn("parent process {} is gone; shutting down", parentPid);
            System.exit(SpringApplication.exit(context, () -> 0));
        }
    }

}
