package dev.zerolayer.simulator.config;

import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.simulator.prewarm.PrewarmInbox;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's consumer beans; their bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class SimulatorConfiguration {

    @Bean
    PrewarmInbox prewarmCommands(EventReader reader) {
        return new PrewarmInbox(reader);
    }
}
