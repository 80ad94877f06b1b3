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
        // events are asynchronous by contract: batching 50 ms of them costs no request anything and saves the broker
        // round trips (at 1,000 req/s, 20 produce requests a second instead of 200)
        config.put(ProducerConfig.LINGER_MS_CONFIG, "50");
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        // a decision's key is its request id, unique, so its partition means nothing: the sticky partitioner fills one
        // partition's batch at a time, so a drain of the buffer wakes the producer's I/O thread for one new batch, not
        // for one per partition (0.28 wake-ups per request at 1,000 req/s when keys chose among 6 partitions)
        config.put(ProducerConfig.PARTITIONER_IGNORE_KEYS_CONFIG, "true");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        // a decision is 3.4 KB of JSON, 70 % of it the candidates' terms under the same keys: LZ4 shrinks a batch
        // several times for a few microseconds on the publishing thread, and the broker writes and every consumer
        // group fetches that much less (the broker and a consumer spent more per decision than the compression costs)
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
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
