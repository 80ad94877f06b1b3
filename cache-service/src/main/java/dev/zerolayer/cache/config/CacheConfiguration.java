package dev.zerolayer.cache.config;

import dev.zerolayer.cache.blocks.NodeBlocks;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's consumer beans; their bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class CacheConfiguration {

    @Bean
    NodeBlocks kvEvents(EventReader reader) {
        return new NodeBlocks(reader);
    }

    @Bean
    DecisionsPerNode routerDecisions(EventReader reader) {
        return new DecisionsPerNode(reader);
    }

    @Bean
    CompactedView<NodeHealth> nodeHealth(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH, NodeHealth.class, reader, clock);
    }
}
