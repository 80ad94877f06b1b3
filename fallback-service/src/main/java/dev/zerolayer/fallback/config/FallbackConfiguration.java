package dev.zerolayer.fallback.config;

import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.fallback.dryrun.RecentDecisions;
import dev.zerolayer.fallback.monitor.DecisionIntake;
import dev.zerolayer.fallback.monitor.FallbackCounts;
import dev.zerolayer.fallback.monitor.FallbackMonitor;
import dev.zerolayer.fallback.monitor.MonitorTicker;
import dev.zerolayer.fallback.policy.PolicyBootstrap;
import dev.zerolayer.fallback.policy.PolicyHistory;
import dev.zerolayer.fallback.policy.PolicyReader;
import dev.zerolayer.fallback.policy.PolicySchema;
import dev.zerolayer.fallback.policy.PolicyStore;
import dev.zerolayer.fallback.policy.PolicyStoreHealth;
import dev.zerolayer.fallback.policy.TopicSnapshot;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventPublisher;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's beans: the decisions consumer (bound in application.yml), policy store and its bootstrap, monitor. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FallbackProperties.class)
public class FallbackConfiguration {

    /** Output bindings (destinations in application.yml; the policy binding sends synchronously). */
    static final String POLICY_BINDING = "policy-out-0";
    static final String ALERTS_BINDING = "alerts-out-0";

    @Bean
    FallbackCounts fallbackCounts(EventReader reader) {
        return new FallbackCounts(reader);
    }

    @Bean
    FallbackMonitor fallbackMonitor(Clock clock, FallbackProperties properties) {
        return new FallbackMonitor(clock, properties.maxApiKeys(), properties.alertOn(),
                (int) dev.zerolayer.contracts.fallback.FallbackAlerting.defaults().windowSeconds());
    }

    @Bean
    RecentDecisions recentDecisions(FallbackProperties properties) {
        return new RecentDecisions(properties.replayDecisions());
    }

    @Bean
    DecisionIntake routerDecisions(EventReader reader, StreamBridge bridge, FallbackCounts counts,
            FallbackMonitor monitor, RecentDecisions recent) {
        return new DecisionIntake(reader, new DeadLetters(bridge, Topics.FALLBACK), counts, monitor, recent);
    }

    @Bean
    PolicyReader policyReader() {
        return new PolicyReader(new PolicySchema());
    }

    @Bean
    PolicyStore policyStore(FallbackProperties properties, EventPublisher events, Clock clock) {
        return new PolicyStore(new PolicyHistory(properties.dataDir()),
                policy -> events.publish(POLICY_BINDING, policy), clock);
    }

    @Bean
    PolicyStoreHealth policyStoreHealthIndicator(PolicyStore store) {
        return new PolicyStoreHealth(store);
    }

    @Bean
    PolicyBootstrap policyBootstrap(PolicyStore store, TopicGuard guard, FallbackProperties properties) {
        TopicSnapshot snapshot = new TopicSnapshot(
                CompactedTopicReader.of(guard).within(properties.snapshotTimeout()));
        return new PolicyBootstrap(store, snapshot::read, guard, properties.bootstrapRetry());
    }

    @Bean
    MonitorTicker monitorTicker(FallbackMonitor monitor, PolicyStore store, EventPublisher events, TopicGuard guard,
            FallbackProperties properties, MeterRegistry meters) {
        return new MonitorTicker(monitor, () -> store.documentOrDefault().alerting(),
                alert -> events.publish(ALERTS_BINDING, alert), guard, properties.monitorTick(), meters);
    }
}
