package dev.zerolayer.console.config;

import dev.zerolayer.console.admin.AdminProxy;
import dev.zerolayer.console.decisions.DecisionLog;
import dev.zerolayer.console.fleet.Fleet;
import dev.zerolayer.console.fleet.SimulatorFaults;
import dev.zerolayer.console.live.LiveEvents;
import dev.zerolayer.console.live.LiveFeed;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The console's beans: the topic readers (bound in application.yml), the simulator's faults in local mode, the live
 * feed and the admin proxy.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ConsoleProperties.class)
public class ConsoleConfiguration {

    @Bean
    CompactedView<NodeHealth> nodeHealth(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader, clock);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
    }

    /** Alerts by scope: the newest record of each scope is its current state (FIRING or RESOLVED). */
    @Bean
    CompactedView<FallbackAlert> fallbackAlerts(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_ALERTS_TOPIC, reader, clock);
    }

    @Bean
    Fleet telemetrySamples(CompactedView<NodeHealth> nodeHealth, ObjectProvider<SimulatorFaults> simulatorFaults,
            EventReader reader, StreamBridge bridge) {
        SimulatorFaults faults = simulatorFaults.getIfAvailable();
        return new Fleet(nodeHealth, faults == null ? node -> List.of() : faults::of, reader,
                new DeadLetters(bridge, Topics.CONSOLE));
    }

    @Bean
    @ConditionalOnBooleanProperty("zerolayer.console.local")
    SimulatorFaults simulatorFaults(ConsoleProperties properties) {
        return new SimulatorFaults(WebClient.builder(), properties.simulatorUrl(), Duration.ofSeconds(2));
    }

    @Bean
    DecisionLog routerDecisions(EventReader reader, StreamBridge bridge, ConsoleProperties properties, Fleet fleet) {
        return new DecisionLog(reader, new DeadLetters(bridge, Topics.CONSOLE), properties.decisionsKept(),
                properties.bucketSeconds(), properties.buckets(), fleet::decided);
    }

    @Bean
    LiveEvents liveEvents() {
        return new LiveEvents();
    }

    @Bean
    LiveFeed liveFeed(LiveEvents events, Fleet fleet, DecisionLog decisions,
            CompactedView<FallbackAlert> fallbackAlerts, CompactedView<FallbackPolicy> fallbackPolicy) {
        return new LiveFeed(events, fleet, decisions, fallbackAlerts, fallbackPolicy);
    }

    @Bean
    AdminProxy adminProxy(ConsoleProperties properties) {
        return new AdminProxy(WebClient.builder(), properties.adminTimeout());
    }
}
