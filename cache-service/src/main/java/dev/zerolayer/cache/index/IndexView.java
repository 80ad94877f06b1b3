package dev.zerolayer.cache.index;

import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.PoisonEventException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;

/**
 * This replica's copy of the published index ({@code cache.kv-index.v1}), for lookups and stats: the restore reads the
 * topic back up to its end offsets at start, then each later record sets its block's holders and a tombstone forgets
 * the block (the records the restore read are skipped when the binding reads them again, so the copy never steps back
 * to an older value); nothing here is published (the partitions' owners publish).
 */
public class IndexView implements Consumer<Message<byte[]>> {

    private static final Logger log = LoggerFactory.getLogger(IndexView.class);

    private final EventReader reader;
    private final BlockIndex index;
    private final RestoreGate gate;
    /** Per partition, the end offset the restore read up to (exclusive). */
    private final Map<Integer, Long> restored = new ConcurrentHashMap<>();

    public IndexView(EventReader reader, BlockIndex index, RestoreGate gate) {
        this.reader = reader;
        this.index = index;
        this.gate = gate;
    }

    /** The copy, with the blocks and holders it knows. */
    public BlockIndex index() {
        return index;
    }

    /** The end offset per partition up to which the restore read the topic (records before it are applied already). */
    public void restoredUpTo(Map<Integer, Long> ends) {
        restored.putAll(ends);
    }

    @Override
    public void accept(Message<byte[]> message) {
        gate.awaitOpen();
        if (message.getHeaders().get(KafkaHeaders.RECEIVED_PARTITION) instanceof Integer partition
                && message.getHeaders().get(KafkaHeaders.OFFSET) instanceof Long offset
                && offset < restored.getOrDefault(partition, 0L)) {
            return; // read back by the restore already
        }
        if (EventReader.isTombstone(message)) {
            String key = EventReader.keyOf(message);
            try {
                index.load(Long.parseUnsignedLong(String.valueOf(key)), List.of());
            } catch (NumberFormatException e) {
                log.warn("{} tombstone with a key that is no block hash ignored", Topics.CACHE_KV_INDEX);
            }
            return;
        }
        KvIndexEntry entry;
        try {
            entry = reader.read(message, Topics.CACHE_KV_INDEX_TOPIC);
        } catch (PoisonEventException e) {
            return; // counted and logged by the reader; the router, the topic's reader, dead-letters it
        }
        index.load(entry.blockHash(), entry.nodes());
    }
}
