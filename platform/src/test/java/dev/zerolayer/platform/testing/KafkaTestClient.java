package dev.zerolayer.platform.testing;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Plain Kafka clients for tests: publish events or raw bytes, and read a whole topic from the beginning. */
public final class KafkaTestClient implements AutoCloseable {

    private final String servers;
    private final Map<String, ?> clientProperties;
    private final KafkaProducer<byte[], byte[]> producer;

    public KafkaTestClient(String servers) {
        this(servers, Map.of());
    }

    /** With client settings (security protocol, SASL) for a secured broker. */
    public KafkaTestClient(String servers, Map<String, ?> clientProperties) {
        this.servers = servers;
        this.clientProperties = Map.copyOf(clientProperties);
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public void publish(String topic, Event event) {
        send(topic, event.key(), EventCodec.encode(event));
    }

    public void send(String topic, String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                    value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("send to " + topic + " failed", e);
        }
    }

    /**
     * Every committed record now in the topic, read from the beginning of all partitions; a transaction whose commit
     * markers are still on their way (a commit returns before they are written) is waited for, up to 5 s.
     */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // as the services read
        Properties uncommitted = new Properties();
        uncommitted.putAll(props);
        uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                var written = new KafkaConsumer<>(uncommitted, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> all = written.endOffsets(partitions);
            long settleBy = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (!end.equals(all) && System.nanoTime() < settleBy) {
                consumer.poll(Duration.ofMillis(50)).forEach(records::add);
                end = consumer.endOffsets(partitions);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && !readTo(consumer, partitions, end)) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
        }
        return records;
    }

    private static boolean readTo(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
            Map<TopicPartition, Long> end) {
        return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
    }

    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
