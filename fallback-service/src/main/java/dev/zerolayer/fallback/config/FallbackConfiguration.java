package dev.zerolayer.fallback.config;

import dev.zerolayer.fallback.monitor.FallbackCounts;
import dev.zerolayer.platform.events.EventReader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's consumer beans; their bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class FallbackConfiguration {

    @Bean
    FallbackCounts routerDecisions(EventReader reader) {
        return new FallbackCounts(reader);
    }
}
