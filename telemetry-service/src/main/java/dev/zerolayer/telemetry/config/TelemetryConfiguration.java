package dev.zerolayer.telemetry.config;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.telemetry.observation.RouterObservations;
import dev.zerolayer.telemetry.registry.NodeRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's consumer beans; their bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class TelemetryConfiguration {

    @Bean
    NodeRegistry telemetrySamples(EventReader reader) {
        return new NodeRegistry(reader);
    }

    @Bean
    RouterObservations routerDecisions(EventReader reader) {
        return new RouterObservations(reader);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY, FallbackPolicy.class, reader, clock);
    }
}
