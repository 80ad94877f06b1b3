package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.topics.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@code fallback.policy.v1} from the beginning to its end offsets as of the call (no consumer group): the newest
 * valid {@code active} record and the highest version any record carried, so a fresh start knows the topic is empty.
 */
public final class TopicSnapshot {

    private static final Logger log = LoggerFactory.getLogger(TopicSnapshot.class);

    /** What the topic held. */
    public record Snapshot(Optional<FallbackPolicy> latest, long highestVersion, long records) {
    }

    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final Duration timeout;

    /** @param clientProperties the binder's client settings (TLS, SASL), as every other client of the service */
    public TopicSnapshot(String bootstrapServers, Map<String, ?> clientProperties, Duration timeout) {
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
        this.timeout = timeout;
    }

    public Snapshot read() {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "fallback-service-policy-snapshot");
        FallbackPolicy latest = null;
        long highest = 0;
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.FALLBACK_POLICY, timeout).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p, timeout) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + Topics.FALLBACK_POLICY + " took longer than "
                            + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    records++;
                    if (record.value() == null) {
                        continue;
                    }
                    highest = Math.max(highest, versionOf(record.value()));
                    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
                    try {
                        FallbackPolicy policy = EventCodec.decode(record.value(), FallbackPolicy.class, key);
                        if (latest == null || policy.version() >= latest.version()) {
                            latest = policy;
                        }
                    } catch (RuntimeException e) {
                        log.warn("{} partition {} offset {}: not a policy record ({}), skipped",
                                record.topic(), record.partition(), record.offset(), e.getMessage());
                    }
                }
            }
        }
        return new Snapshot(Optional.ofNullable(latest), highest, records);
    }

    /** The version a record claims even when it does not decode as a whole, 0 when it names none. */
    private static long versionOf(byte[] value) {
        try {
            JsonNode tree = EventCodec.mapper().readTree(value);
            JsonNode version = tree == null ? null : tree.get("version");
            return version != null && version.canConvertToLong() ? Math.max(0, version.asLong()) : 0;
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
