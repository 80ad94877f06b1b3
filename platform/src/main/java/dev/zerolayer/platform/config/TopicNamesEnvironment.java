package dev.zerolayer.platform.config;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Exposes the contracts' topic names to YAML, so bindings name destinations without repeating them:
 * {@code ${zerolayer.topic.router-decisions}} is {@code router.decisions.v1}, and
 * {@code ${zerolayer.dlq.router-decisions}} is that topic's dead-letter topic for this service.
 */
public class TopicNamesEnvironment implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> names = new LinkedHashMap<>();
        for (TopicSpec<?> spec : Topics.ALL) {
            String shortName = shortName(spec.name());
            names.put("zerolayer.topic." + shortName, spec.name());
            names.put("zerolayer.dlq." + shortName,
                    Topics.deadLetterTopic(spec.name(), "${zerolayer.service}"));
        }
        environment.getPropertySources().addLast(new MapPropertySource("zerolayerTopicNames", names));
    }

    /** {@code telemetry.node-health.v1} becomes {@code telemetry-node-health}. */
    public static String shortName(String topic) {
        return topic.replaceFirst("\\.v\\d+$", "").replace('.', '-');
    }
}
