package dev.zerolayer.router.events;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The decision producer's settings: the binder's client settings (TLS, SASL, ...) and producer properties as the
 * operator configured them, then what the publisher's guarantees need and nobody may override: every replica
 * acknowledges ({@code acks=all}), idempotent retries, and a send that never blocks the publishing thread long.
 */
public final class DecisionProducerConfig {

    private DecisionProducerConfig() {
    }

    public static Map<String, Object> of(String bootstrapServers, Map<String, ?> clientProperties,
            Map<String, String> producerProperties) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        config.putAll(clientProperties);
        config.putAll(producerProperties);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "zerolayer-router-decisions");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
        config.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        config.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        return config;
    }
}
