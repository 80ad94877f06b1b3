package dev.zerolayer.platform.topics;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Kafka client settings (TLS, SASL, ...) the binder uses, {@code spring.cloud.stream.kafka.binder.configuration.*},
 * given to the admin clients that provision topics too, so a TLS/SASL-only cluster works for them as for the binder.
 * Outside Spring they come from the environment variables {@code SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_<KEY>}
 * ({@code SECURITY_PROTOCOL} becomes {@code security.protocol}).
 */
public final class KafkaClientSecurity {

    static final String ENV_PREFIX = "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_";

    private KafkaClientSecurity() {
    }

    /** Client properties from environment variables named as Spring's relaxed binding names them. */
    public static Map<String, Object> fromEnvironment(Map<String, String> env) {
        Map<String, Object> properties = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length() && value != null) {
                properties.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        return properties;
    }

    /** Admin client settings: the given client properties, then bootstrap servers and the timeouts on top. */
    public static Map<String, Object> adminConfig(String bootstrapServers, Map<String, ?> clientProperties,
            int apiTimeoutMs, int requestTimeoutMs) {
        Map<String, Object> config = new LinkedHashMap<>(clientProperties);
        config.put("bootstrap.servers", bootstrapServers);
        config.put("default.api.timeout.ms", apiTimeoutMs);
        config.put("request.timeout.ms", requestTimeoutMs);
        return config;
    }
}
