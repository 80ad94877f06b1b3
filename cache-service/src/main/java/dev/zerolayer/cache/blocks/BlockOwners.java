package dev.zerolayer.cache.blocks;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.index.HoldingsFold;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.PartitionOwners;
import dev.zerolayer.platform.replica.PublicationRound;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The block owners of cache-service (docs/ha.md, "Partitioned ownership"): the owner of {@code cache.kv-holdings.v1}
 * partition p alone publishes {@code cache.kv-index.v1} for the blocks of p (the same partition there), each block's
 * holders the union of its holdings. Taking p over, it reads holdings p and index p to their end, folds the one and
 * reconciles with the other, so that it sends exactly the difference.
 */
public final class BlockOwners extends PartitionOwners<BlockOwners.Blocks> {

    /** The consumer group the block owners share. */
    public static final String GROUP = "cache-service.blocks";

    private final int eventsPartitions;
    private final int maxPerRound;
    private final Clock clock;

    /** One owned holdings partition: its blocks and their fold. */
    public record Blocks(BlockIndex index, HoldingsFold fold) {
    }

    /**
     * @param writers          the writer of one partition (a transactional id of its own), made when it is gained
     * @param eventsPartitions how many partitions {@code cache.kv-events.v1} has
     */
    public BlockOwners(String replica, String bootstrapServers, Map<String, ?> clientProperties,
            IntFunction<TermWriter> writers, int eventsPartitions, int maxPerRound, Duration interval,
            Duration sessionTimeout, Clock clock) {
        super(Topics.CACHE_KV_HOLDINGS, GROUP, replica, bootstrapServers, clientProperties, writers, interval,
                sessionTimeout);
        this.eventsPartitions = eventsPartitions;
        this.maxPerRound = maxPerRound;
        this.clock = clock;
    }

    @Override
    protected Blocks newState(int partition) {
        BlockIndex index = new BlockIndex();
        return new Blocks(index, new HoldingsFold(index, eventsPartitions));
    }

    @Override
    protected Map<Integer, Long> takeOver(Map<Integer, Blocks> gained) {
        CompactedTopicReader reader = new CompactedTopicReader(bootstrapServers(), clientProperties());
        Map<Integer, Long> ends = reader.readPartitionsToEnd(Topics.CACHE_KV_HOLDINGS_TOPIC, GROUP, gained.keySet(),
                (record, entry) -> gained.get(record.partition()).fold().apply(RecordKeys.text(record.key()), entry),
                CompactedTopicReader::skipUnreadable, this::running);
        Map<Integer, Map<Long, List<String>>> published = new HashMap<>();
        gained.keySet().forEach(p -> published.put(p, new HashMap<>()));
        reader.readPartitionsToEnd(Topics.CACHE_KV_INDEX_TOPIC, GROUP, gained.keySet(), (record, entry) -> {
            long block = Long.parseUnsignedLong(RecordKeys.text(record.key()));
            if (entry == null) {
                published.get(record.partition()).remove(block);
            } else {
                published.get(record.partition()).put(block, entry.nodes());
            }
        }, CompactedTopicReader::skipUnreadable, this::running);
        gained.forEach((p, blocks) -> blocks.index().reconcile(published.get(p)));
        return ends;
    }

    @Override
    protected void apply(Blocks blocks, ConsumerRecord<byte[], byte[]> record) {
        try {
            String key = RecordKeys.text(record.key());
            blocks.fold().apply(key, record.value() == null ? null
                    : EventCodec.decode(record.value(), KvHoldingEntry.class, key));
        } catch (RuntimeException e) {
            CompactedTopicReader.skipUnreadable(record, e);
        }
    }

    /** The blocks of the partition whose holders changed: their holders now, or a tombstone. */
    @Override
    protected PublicationRound round(int partition, Blocks blocks, Writer stamp) {
        long[] before = new long[maxPerRound];
        List<BlockIndex.Change> changes = blocks.index().drainChanges(maxPerRound, before);
        if (changes.isEmpty()) {
            return PublicationRound.EMPTY;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(changes.size());
        for (BlockIndex.Change change : changes) {
            records.add(change.nodes().isEmpty()
                    ? TermWriter.tombstone(Topics.CACHE_KV_INDEX, Long.toUnsignedString(change.blockHash()))
                    : TermWriter.record(Topics.CACHE_KV_INDEX, new KvIndexEntry(EventChecks.newEventId(),
                            clock.instant(), KvIndexEntry.SCHEMA_VERSION, change.blockHash(), null, change.nodes(),
                            stamp)));
        }
        return new PublicationRound(records, () -> {
            for (int j = 0; j < changes.size(); j++) {
                blocks.index().requeue(changes.get(j).blockHash(), before[j]);
            }
        });
    }
}
