package dev.zerolayer.platform.topics;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.platform.events.RecordKeys;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a compacted topic once, every partition from the beginning up to the end offsets seen at the start, with the
 * binder's client settings (TLS, SASL): how a service reads back what it published before a restart.
 */
public final class CompactedTopicReader {

    private static final Logger log = LoggerFactory.getLogger(CompactedTopicReader.class);

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(10);

    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final Duration within;

    public CompactedTopicReader(String bootstrapServers, Map<String, ?> clientProperties) {
        this(bootstrapServers, clientProperties, null);
    }

    private CompactedTopicReader(String bootstrapServers, Map<String, ?> clientProperties, Duration within) {
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
        this.within = within;
    }

    /**
     * The same reader, giving up a read that takes longer than {@code timeout} (an {@link IllegalStateException}; the
     * broker calls in it wait as long at most).
     */
    public CompactedTopicReader within(Duration timeout) {
        return new CompactedTopicReader(bootstrapServers, clientProperties, timeout);
    }

    /** A reader with the same broker and client settings as the guard's admin client. */
    public static CompactedTopicReader of(TopicGuard guard) {
        return new CompactedTopicReader(guard.bootstrapServers(), guard.clientProperties());
    }

    /** What to do with one record: key (null when the record had none) and its event (null for a tombstone). */
    @FunctionalInterface
    public interface RecordHandler<T> {
        void accept(String key, T event);
    }

    /** What to do with one record, position included, and its event (null for a tombstone). */
    @FunctionalInterface
    public interface PositionedRecordHandler<T> {
        void accept(ConsumerRecord<byte[], byte[]> record, T event);
    }

    /**
     * Hands every record up to the end offsets of the start to {@code apply}, in offset order per partition, decoded to
     * the topic's event type; a record that does not decode, or whose handler throws a {@link RuntimeException}, goes
     * to {@code unreadable} with its position and the reading goes on. Returns the number of records applied; stops early when {@code keepGoing} turns false. Broker failures
     * propagate (the caller retries).
     */
    public <T extends Event> int readToEnd(TopicSpec<T> topic, String groupPrefix, RecordHandler<T> apply,
            BiConsumer<ConsumerRecord<byte[], byte[]>, RuntimeException> unreadable, BooleanSupplier keepGoing) {
        return readRecordsToEnd(topic, groupPrefix,
                (record, event) -> apply.accept(RecordKeys.text(record.key()), event), unreadable, keepGoing);
    }

    /** As {@link #readToEnd}, handing over whole records (position included). */
    public <T extends Event> int readRecordsToEnd(TopicSpec<T> spec, String groupPrefix,
            PositionedRecordHandler<T> apply,
            BiConsumer<ConsumerRecord<byte[], byte[]>, RuntimeException> unreadable, BooleanSupplier keepGoing) {
        int[] count = new int[1];
        readPartitionsToEnd(spec, groupPrefix, null, (record, event) -> {
            apply.accept(record, event);
            count[0]++;
        }, unreadable, keepGoing);
        return count[0];
    }

    /**
     * For a takeover's read: a record that cannot be read (not an event of its topic, or a key that is no number where
     * one is due) is logged and skipped; anything else is thrown, and the takeover fails and rejoins.
     */
    public static void skipUnreadable(ConsumerRecord<byte[], byte[]> record, RuntimeException e) {
        if (!(e instanceof InvalidEventException || e instanceof NumberFormatException)) {
            throw e;
        }
        log.warn("skipped unreadable record {} partition {} offset {}: {}", record.topic(), record.partition(),
                record.offset(), e.getMessage());
    }

    /**
     * As {@link #readRecordsToEnd}, of the partitions {@code only} (every partition when null); returns the end offset
     * each partition was read up to.
     */
    public <T extends Event> Map<Integer, Long> readPartitionsToEnd(TopicSpec<T> spec, String groupPrefix,
            java.util.Collection<Integer> only, PositionedRecordHandler<T> apply,
            BiConsumer<ConsumerRecord<byte[], byte[]>, RuntimeException> unreadable, BooleanSupplier keepGoing) {
        return readPartitionsToEnd(spec, groupPrefix, only, key -> true, apply, unreadable, keepGoing);
    }

    /** As {@link #readPartitionsToEnd}, skipping undecoded the records whose key {@code keys} refuses. */
    public <T extends Event> Map<Integer, Long> readPartitionsToEnd(TopicSpec<T> spec, String groupPrefix,
            java.util.Collection<Integer> only, Predicate<String> keys, PositionedRecordHandler<T> apply,
            BiConsumer<ConsumerRecord<byte[], byte[]>, RuntimeException> unreadable, BooleanSupplier keepGoing) {
        String topic = spec.name();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + ".restore." + UUID.randomUUID());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Duration brokerTimeout = within == null ? BROKER_TIMEOUT : within;
        if (within != null) {
            config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) within.toMillis());
        }
        long deadline = within == null ? Long.MAX_VALUE : System.nanoTime() + within.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = StateConsumers.open(bootstrapServers, clientProperties,
                config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, brokerTimeout).stream()
                    .filter(info -> only == null || only.contains(info.partition()))
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, brokerTimeout);
            while (keepGoing.getAsBoolean()
                    && partitions.stream().anyMatch(p -> consumer.position(p, brokerTimeout) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topic + " took longer than " + within);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String key = RecordKeys.text(record.key());
                    if (!keys.test(key)) {
                        continue;
                    }
                    try {
                        apply.accept(record, record.value() == null ? null : EventCodec.decode(record.value(),
                                spec.eventType(), key));
                    } catch (RuntimeException e) {
                        unreadable.accept(record, e);
                    }
                }
            }
            Map<Integer, Long> ends = new java.util.TreeMap<>();
            end.forEach((partition, offset) -> ends.put(partition.partition(), offset));
            return ends;
        }
    }
}
