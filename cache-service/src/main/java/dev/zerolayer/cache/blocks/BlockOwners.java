package dev.zerolayer.cache.blocks;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.index.HoldingsFold;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block owners of cache-service (docs/ha.md, "Partitioned ownership"): the replicas share the partitions of {@code
 * cache.kv-holdings.v1} through one consumer group, and the owner of partition p alone publishes {@code
 * cache.kv-index.v1} for the blocks of p, stamped with its replica and the group generation, under a transactional id
 * of its own for p opened when p is assigned (which fences a former owner before anything is read). On assignment it
 * reads holdings p and index p to their end, folds the one, reconciles with the other (so it sends exactly the
 * difference) and goes on from there; a revoked partition's last changes go out before the revocation completes; a
 * lost one's writer is closed. One thread polls, folds and publishes (every {@code interval}): no state is shared.
 */
public final class BlockOwners implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BlockOwners.class);

    /** The consumer group the block owners share. */
    public static final String GROUP = "cache-service.blocks";

    private final String replica;
    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final IntFunction<TermWriter> writers;
    private final int eventsPartitions;
    private final int maxPerRound;
    private final Duration interval;
    private final Duration sessionTimeout;
    private final Clock clock;
    private final Map<Integer, Owned> owned = new TreeMap<>();
    private volatile boolean running;
    private Thread thread;
    private KafkaConsumer<byte[], byte[]> consumer;
    private volatile long generation = -1;

    /** One owned holdings partition: its blocks, their fold, and its writer. */
    private record Owned(BlockIndex index, HoldingsFold fold, TermWriter writer) {
    }

    /**
     * @param writers          the writer of one partition (its own transactional id), made when it is assigned
     * @param eventsPartitions how many partitions {@code cache.kv-events.v1} has
     */
    public BlockOwners(String replica, String bootstrapServers, Map<String, ?> clientProperties,
            IntFunction<TermWriter> writers, int eventsPartitions, int maxPerRound, Duration interval,
            Duration sessionTimeout, Clock clock) {
        this.replica = replica;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
        this.writers = writers;
        this.eventsPartitions = eventsPartitions;
        this.maxPerRound = maxPerRound;
        this.interval = interval;
        this.sessionTimeout = sessionTimeout;
        this.clock = clock;
    }

    /** Joins the group and starts polling, folding and publishing on a thread of its own. */
    public synchronized void start() {
        if (running) {
            return;
        }
        Map<String, Object> config = new LinkedHashMap<>(clientProperties);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, GROUP + "-" + replica);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"); // each assignment reads its partitions whole
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // a fenced owner's writes are not state
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(500, sessionTimeout.toMillis() / 3));
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        running = true;
        thread = new Thread(this::run, "cache-block-owners");
        thread.setDaemon(true);
        thread.start();
    }

    /** The holdings partitions this replica owns now (each publishing for its blocks). */
    public synchronized Set<Integer> owned() {
        return Set.copyOf(owned.keySet());
    }

    /** The group generation of this replica's assignment (-1 before the first). */
    public long generation() {
        return generation;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(Topics.CACHE_KV_HOLDINGS), new Handover());
            long nextRound = System.nanoTime();
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(interval)) {
                    apply(record);
                }
                if (System.nanoTime() >= nextRound) {
                    publish(Set.copyOf(owned()));
                    nextRound = System.nanoTime() + interval.toNanos();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            log.error("block owners stopped: {}", e.toString(), e);
        } finally {
            try {
                consumer.close(); // leaves the group: the revocation publishes what is left
            } catch (RuntimeException e) {
                log.debug("closing the block owners' consumer: {}", e.toString());
            }
            synchronized (this) {
                owned.values().forEach(o -> o.writer().close());
                owned.clear();
            }
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        Owned partition;
        synchronized (this) {
            partition = owned.get(record.partition());
        }
        if (partition == null) {
            return;
        }
        try {
            String key = RecordKeys.text(record.key());
            KvHoldingEntry entry = record.value() == null ? null
                    : EventCodec.decode(record.value(), KvHoldingEntry.class, key);
            partition.fold().apply(key, entry);
        } catch (RuntimeException e) {
            log.warn("skipped unreadable holdings record partition {} offset {}: {}", record.partition(),
                    record.offset(), e.getMessage());
        }
    }

    /** One publication round per owned partition: its changed blocks (holders now, or a tombstone). */
    private void publish(Collection<Integer> partitions) {
        for (int p : partitions) {
            Owned partition;
            synchronized (this) {
                partition = owned.get(p);
            }
            if (partition == null) {
                continue;
            }
            long[] before = new long[maxPerRound];
            List<BlockIndex.Change> changes = partition.index().drainChanges(maxPerRound, before);
            if (changes.isEmpty()) {
                continue;
            }
            Writer stamp = new Writer(replica, generation);
            List<ProducerRecord<byte[], byte[]>> round = new ArrayList<>(changes.size());
            for (BlockIndex.Change change : changes) {
                round.add(change.nodes().isEmpty()
                        ? TermWriter.tombstone(Topics.CACHE_KV_INDEX, Long.toUnsignedString(change.blockHash()))
                        : TermWriter.record(Topics.CACHE_KV_INDEX, new KvIndexEntry(EventChecks.newEventId(),
                                clock.instant(), KvIndexEntry.SCHEMA_VERSION, change.blockHash(), null,
                                change.nodes(), stamp)));
            }
            TermWriter.Outcome outcome = partition.writer().write(round);
            if (outcome != TermWriter.Outcome.COMMITTED) {
                for (int j = 0; j < changes.size(); j++) {
                    partition.index().requeue(changes.get(j).blockHash(), before[j]);
                }
                log.warn("index round of partition {} not published ({}): {} blocks stay pending", p, outcome,
                        changes.size());
            }
        }
    }

    /** Takes partitions over on assignment, gives them up on revocation or loss; runs on the polling thread. */
    private final class Handover implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<Integer> revoked = numbers(partitions);
            publish(revoked); // before another replica may be assigned them
            drop(revoked);
            if (!revoked.isEmpty()) {
                log.info("holdings partitions {} revoked: published and given up", revoked);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            Set<Integer> lost = numbers(partitions);
            drop(lost);
            log.warn("holdings partitions {} lost: given up without publishing", lost);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            generation = consumer.groupMetadata().generationId();
            Set<Integer> gained = new TreeSet<>(numbers(partitions));
            synchronized (BlockOwners.this) {
                gained.removeAll(owned.keySet());
            }
            if (gained.isEmpty()) {
                return;
            }
            long started = System.nanoTime();
            Map<Integer, Owned> taken = new HashMap<>();
            try {
                takeOver(gained, taken);
            } catch (RuntimeException e) {
                // a broker failure mid-takeover: nothing of it is kept, and the group is asked to assign again
                taken.values().forEach(o -> o.writer().close());
                log.warn("taking over holdings partitions {} failed, rejoining: {}", gained, e.toString());
                consumer.enforceRebalance();
                return;
            }
            synchronized (BlockOwners.this) {
                owned.putAll(taken);
            }
            log.info("holdings partitions {} taken over under generation {} in {} ms", gained, generation,
                    (System.nanoTime() - started) / 1_000_000);
        }

        /** Opens each gained partition's writer, then folds its holdings and reconciles with its index. */
        private void takeOver(Set<Integer> gained, Map<Integer, Owned> taken) {
            for (int p : gained) {
                TermWriter writer = writers.apply(p);
                writer.open(generation); // fences a former owner before anything is read
                BlockIndex index = new BlockIndex();
                taken.put(p, new Owned(index, new HoldingsFold(index, eventsPartitions), writer));
            }
            CompactedTopicReader reader = new CompactedTopicReader(bootstrapServers, clientProperties);
            Map<Integer, Long> ends = reader.readPartitionsToEnd(Topics.CACHE_KV_HOLDINGS_TOPIC, GROUP, gained,
                    (record, entry) -> taken.get(record.partition()).fold()
                            .apply(RecordKeys.text(record.key()), entry), BlockOwners::skip, () -> running);
            Map<Integer, Map<Long, List<String>>> published = new HashMap<>();
            gained.forEach(p -> published.put(p, new HashMap<>()));
            reader.readPartitionsToEnd(Topics.CACHE_KV_INDEX_TOPIC, GROUP, gained, (record, entry) -> {
                long block = Long.parseUnsignedLong(RecordKeys.text(record.key()));
                Map<Long, List<String>> partition = published.get(record.partition());
                if (entry == null) {
                    partition.remove(block);
                } else {
                    partition.put(block, entry.nodes());
                }
            }, BlockOwners::skip, () -> running);
            for (int p : gained) {
                Owned partition = taken.get(p);
                partition.index().reconcile(published.get(p));
                consumer.seek(new TopicPartition(Topics.CACHE_KV_HOLDINGS, p), ends.getOrDefault(p, 0L));
            }
        }
    }

    private synchronized void drop(Set<Integer> partitions) {
        for (int p : partitions) {
            Owned partition = owned.remove(p);
            if (partition != null) {
                partition.writer().close();
            }
        }
    }

    private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
        Set<Integer> numbers = new TreeSet<>();
        partitions.forEach(p -> numbers.add(p.partition()));
        return numbers;
    }

    private static void skip(ConsumerRecord<byte[], byte[]> record, RuntimeException e) {
        if (!(e instanceof InvalidEventException || e instanceof NumberFormatException)) {
            throw e;
        }
        log.warn("skipped unreadable record {} partition {} offset {}: {}", record.topic(), record.partition(),
                record.offset(), e.getMessage());
    }

    /** Leaves the group (its revocation publishes what is left) and stops. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            if (!this.running) {
                return;
            }
            this.running = false;
            running = thread;
        }
        consumer.wakeup();
        try {
            running.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
