package dev.zerolayer.simulator.config;

import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.simulator.fleet.Fleet;
import dev.zerolayer.simulator.fleet.FleetProperties;
import dev.zerolayer.simulator.kv.KafkaKvEventPublisher;
import dev.zerolayer.simulator.prewarm.PrewarmInbox;
import dev.zerolayer.simulator.telemetry.KafkaTelemetrySink;
import dev.zerolayer.simulator.telemetry.PrometheusExposition;
import dev.zerolayer.simulator.telemetry.TelemetryPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import dev.zerolayer.platform.events.EventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's beans: the fleet, its KV-event and telemetry publishers, and the prewarm consumer (bound in YAML). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FleetProperties.class)
public class SimulatorConfiguration {

    @Bean
    KafkaKvEventPublisher kvEventPublisher(EventPublisher events, TopicGuard guard, MeterRegistry meters,
            FleetProperties properties) {
        return new KafkaKvEventPublisher(events, guard, meters, properties.maxQueuedKvEvents());
    }

    @Bean
    Fleet fleet(FleetProperties properties, KafkaKvEventPublisher kvEvents, Clock clock) {
        return new Fleet(properties, kvEvents, new PrometheusExposition(), clock);
    }

    @Bean
    TelemetryPublisher telemetryPublisher(Fleet fleet, EventPublisher events, FleetProperties properties) {
        return new TelemetryPublisher(fleet::nodes, new KafkaTelemetrySink(events),
                properties.sampleInterval(), properties.registrationInterval());
    }

    @Bean
    PrewarmInbox prewarmCommands(EventReader reader, Fleet fleet) {
        return new PrewarmInbox(reader, fleet::prewarm);
    }
}
