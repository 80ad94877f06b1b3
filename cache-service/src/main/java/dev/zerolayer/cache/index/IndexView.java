package dev.zerolayer.cache.index;

import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.topics.StateConsumers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * This replica's copy of the published index ({@code cache.kv-index.v1}), for lookups and stats: the restore reads the
 * topic back up to its end offsets at start, then a consumer of its own (no group: every partition, from those ends,
 * so the copy never steps back to an older value) sets each later record's block holders, and a tombstone forgets the
 * block; nothing here is published (the partitions' owners publish).
 */
public class IndexView implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(IndexView.class);

    private final BlockIndex index;
    private final RestoreGate gate;
    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    /** Per partition, the end offset the restore read up to (exclusive): where the consumer goes on from. */
    private final Map<Integer, Long> restored = new ConcurrentHashMap<>();
    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private Thread thread;

    public IndexView(BlockIndex index, RestoreGate gate, String bootstrapServers, Map<String, ?> clientProperties) {
        this.index = index;
        this.gate = gate;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
    }

    /** The copy, with the blocks and holders it knows. */
    public BlockIndex index() {
        return index;
    }

    /** The end offset per partition up to which the restore read the topic (records before it are applied already). */
    public void restoredUpTo(Map<Integer, Long> ends) {
        restored.putAll(ends);
    }

    /** Applies one record of the topic: its block's holders, or a tombstone; an unreadable one is skipped. */
    public void apply(ConsumerRecord<byte[], byte[]> record) {
        String key = RecordKeys.text(record.key());
        try {
            if (record.value() == null) {
                index.load(Long.parseUnsignedLong(String.valueOf(key)), List.of());
                return;
            }
            KvIndexEntry entry = EventCodec.decode(record.value(), KvIndexEntry.class, key);
            index.load(entry.blockHash(), entry.nodes());
        } catch (InvalidEventException | NumberFormatException e) {
            // the router, the topic's reader, dead-letters it
            log.warn("{} partition {} offset {} skipped: {}", record.topic(), record.partition(), record.offset(),
                    e.getMessage());
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = new Thread(this::run, "cache-index-view");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            gate.awaitOpen();
        } catch (IllegalStateException e) {
            return; // stopped before the restore ended
        }
        try (KafkaConsumer<byte[], byte[]> reading = StateConsumers.open(bootstrapServers, clientProperties,
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000))) {
            consumer = reading;
            List<TopicPartition> partitions = reading.partitionsFor(Topics.CACHE_KV_INDEX, Duration.ofSeconds(30))
                    .stream().map(info -> new TopicPartition(Topics.CACHE_KV_INDEX, info.partition())).toList();
            reading.assign(partitions);
            for (TopicPartition partition : partitions) {
                reading.seek(partition, restored.getOrDefault(partition.partition(), 0L));
            }
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : reading.poll(Duration.ofMillis(500))) {
                    apply(record);
                }
            }
        } catch (WakeupException e) {
            // stopping
        } catch (RuntimeException e) {
            log.error("the view of {} stopped: {}", Topics.CACHE_KV_INDEX, e.toString(), e);
        } finally {
            consumer = null;
        }
    }

    @Override
    public void stop() {
        Thread reading;
        synchronized (this) {
            running = false;
            reading = thread;
        }
        KafkaConsumer<byte[], byte[]> now = consumer;
        if (now != null) {
            now.wakeup();
        }
        if (reading != null) {
            reading.interrupt(); // a wait for the restore
            try {
                reading.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
