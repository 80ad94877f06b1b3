package dev.zerolayer.platform.topics;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer of state written in transactions reads only what was committed (a fenced writer's records are not
 * state), never commits on its own, and uses the cluster's client settings (security included); the caller adds what
 * its reading needs (group, batch size, offset reset, timeouts).
 */
public final class StateConsumers {

    private StateConsumers() {
    }

    /** A read-committed byte consumer of {@code bootstrapServers} with {@code clientProperties}, then {@code extra}. */
    public static KafkaConsumer<byte[], byte[]> open(String bootstrapServers, Map<String, ?> clientProperties,
            Map<String, Object> extra) {
        Map<String, Object> config = new LinkedHashMap<>(clientProperties);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.putAll(extra);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
