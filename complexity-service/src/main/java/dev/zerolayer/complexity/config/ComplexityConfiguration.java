package dev.zerolayer.complexity.config;

import dev.zerolayer.complexity.observation.ObservedDecisions;
import dev.zerolayer.platform.events.EventReader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's consumer beans; their bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class ComplexityConfiguration {

    @Bean
    ObservedDecisions routerDecisions(EventReader reader) {
        return new ObservedDecisions(reader);
    }
}
