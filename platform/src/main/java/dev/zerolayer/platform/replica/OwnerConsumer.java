package dev.zerolayer.platform.replica;

import dev.zerolayer.platform.topics.StateConsumers;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The consumer partition owners share their input topic's partitions with (read-committed, cooperative-sticky: a
 * rebalance moves only the partitions that change owner), and where an owner stands in it: its positions (committed
 * once what was applied is published) and the group's committed offsets within the log (for a takeover to go on from).
 */
final class OwnerConsumer {

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(30);

    private OwnerConsumer() {
    }

    /** A member of {@code group} named after {@code replica}, which a silent {@code sessionTimeout} loses its share. */
    static KafkaConsumer<byte[], byte[]> open(String group, String replica, String bootstrapServers,
            Map<String, ?> clientProperties, Duration sessionTimeout) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + replica);
        // a rebalance moves only the partitions that change owner: the others go on publishing, not taken over again
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(500, sessionTimeout.toMillis() / 3));
        return StateConsumers.open(bootstrapServers, clientProperties, config);
    }

    /** The consumer's position in each of {@code partitions} of {@code topic}. */
    static Map<TopicPartition, OffsetAndMetadata> positions(Consumer<?, ?> consumer, String topic,
            Collection<Integer> partitions) {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (int p : partitions) {
            TopicPartition tp = new TopicPartition(topic, p);
            positions.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        }
        return positions;
    }

    /** The group's committed offsets of {@code partitions} from the log's start to its end (others: none). */
    static Map<Integer, Long> committedWithinLog(Consumer<?, ?> consumer, String topic, Set<Integer> partitions) {
        Set<TopicPartition> asked = new HashSet<>();
        partitions.forEach(p -> asked.add(new TopicPartition(topic, p)));
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(asked, BROKER_TIMEOUT);
        Map<TopicPartition, Long> start = consumer.beginningOffsets(asked, BROKER_TIMEOUT);
        Map<TopicPartition, Long> end = consumer.endOffsets(asked, BROKER_TIMEOUT);
        Map<Integer, Long> within = new TreeMap<>();
        committed.forEach((tp, offset) -> {
            if (offset != null && offset.offset() >= start.get(tp) && offset.offset() <= end.get(tp)) {
                within.put(tp.partition(), offset.offset());
            }
        });
        return within;
    }
}
