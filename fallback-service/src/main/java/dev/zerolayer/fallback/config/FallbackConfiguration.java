package dev.zerolayer.fallback.config;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
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
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.leader.LeaderWrites;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.ReplicaAddress;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * The service's beans: the decisions consumer and policy view (bound in application.yml), the leadership election, the
 * policy store and its takeover, the monitor.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FallbackProperties.class)
public class FallbackConfiguration {

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

    /** The writes only the leader takes: a follower passes them to it. */
    @Bean
    LeaderWrites leaderWrites() {
        return LeaderWrites.of("the policy", LeaderWrites.Route.of(HttpMethod.PUT, "/v1/policy"),
                LeaderWrites.Route.of(HttpMethod.POST, "/v1/policy/rollback/{version}"));
    }

    /** The one replica that writes the policy and alerts: elected in a group over the policy's single partition. */
    @Bean
    Leadership leadership(ReplicaId replica, ReplicaAddress address, TopicGuard guard, ZeroLayerProperties platform,
            Clock clock) {
        return Leadership.over(Topics.FALLBACK_POLICY, platform, replica, address, guard, clock);
    }

    @Bean
    PolicyStore policyStore(FallbackProperties properties, TermWriter termWriter, Clock clock,
            Leadership leadership) {
        return new PolicyStore(new PolicyHistory(properties.dataDir()),
                policy -> termWriter.publish(Topics.FALLBACK_POLICY, policy) == TermWriter.Outcome.COMMITTED, clock,
                () -> leadership.writer().orElse(null));
    }

    /** The policy topic, read by every replica: the versions the leader publishes, adopted by the others. */
    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock, PolicyStore store) {
        CompactedView<FallbackPolicy> view = new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
        view.onUpdate(store::observe);
        return view;
    }

    @Bean
    PolicyStoreHealth policyStoreHealthIndicator(PolicyStore store) {
        return new PolicyStoreHealth(store);
    }

    @Bean
    PolicyBootstrap policyBootstrap(PolicyStore store, TopicGuard guard, FallbackProperties properties,
            Leadership leadership, TermWriter termWriter) {
        TopicSnapshot snapshot = new TopicSnapshot(
                CompactedTopicReader.of(guard).within(properties.snapshotTimeout()));
        return new PolicyBootstrap(store, snapshot::read, guard, properties.bootstrapRetry(), leadership, termWriter);
    }

    @Bean
    MonitorTicker monitorTicker(FallbackMonitor monitor, PolicyStore store, TermWriter termWriter, TopicGuard guard,
            FallbackProperties properties, MeterRegistry meters, Leadership leadership) {
        // every replica evaluates every decision (a follower is warm when it takes over); only the leader publishes
        return new MonitorTicker(monitor, () -> store.documentOrDefault().alerting(),
                alert -> !leadership.isLeader()
                        || termWriter.publish(Topics.FALLBACK_ALERTS, alert) == TermWriter.Outcome.COMMITTED, guard,
                properties.monitorTick(), meters);
    }
}
