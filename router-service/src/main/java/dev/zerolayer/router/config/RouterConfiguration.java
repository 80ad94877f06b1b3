package dev.zerolayer.router.config;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.models.ModelCatalogue;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The router's compacted-topic views (one consumer bean each) and what reads them; bindings are in application.yml. */
@Configuration(proxyBeanMethods = false)
public class RouterConfiguration {

    @Bean
    CompactedView<NodeHealth> nodeHealth(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH, NodeHealth.class, reader, clock);
    }

    @Bean
    CompactedView<ComplexityModel> complexityModel(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.COMPLEXITY_MODEL, ComplexityModel.class, reader, clock);
    }

    @Bean
    CompactedView<KvIndexEntry> kvIndex(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.CACHE_KV_INDEX, KvIndexEntry.class, reader, clock);
    }

    @Bean
    CompactedView<SessionEntry> sessions(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.CACHE_SESSIONS, SessionEntry.class, reader, clock);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY, FallbackPolicy.class, reader, clock);
    }

    @Bean
    ModelCatalogue modelCatalogue(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new ModelCatalogue(fallbackPolicy);
    }
}
