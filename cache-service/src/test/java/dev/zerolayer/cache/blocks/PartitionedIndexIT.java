package dev.zerolayer.cache.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.ingest.Relays;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.WriterAudit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both stages of the partitioned index against a real broker: node owners apply each events partition's KV events
 * and publish its holdings, block owners fold the holdings into the index. One replica, then two splitting both
 * topics' partitions, then one again after the other leaves (its partitions taken over from the holdings it
 * published and the offsets it committed, the events before them gone from the log): at each step the index says
 * which nodes hold each block, as the events say, and no key of the holdings or of the index ever had two writers.
 */
class PartitionedIndexIT {

    private static final int PARTITIONS = 6;
    private static final List<String> NODES = List.of("haiku-1", "haiku-2", "sonnet-1", "sonnet-2", "sonnet-3",
            "opus-1", "opus-2", "vllm-a", "vllm-b", "vllm-c");

    @TempDir
    Path dir;

    private final Map<String, Long> sequences = new HashMap<>();
    private final Map<Long, Set<String>> expected = new TreeMap<>();

    private void event(KafkaProducer<byte[], byte[]> producer, String node, KvEventType type, List<Long> blocks)
            throws Exception {
        long sequence = sequences.merge(node, 1L, Long::sum);
        KvCacheEvent event = new KvCacheEvent("evt-" + node + "-" + sequence, Instant.now(), KvCacheEvent.SCHEMA_VERSION,
                node, sequence, type, blocks, null, 16);
        producer.send(new ProducerRecord<>(Topics.CACHE_KV_EVENTS, node.getBytes(StandardCharsets.UTF_8),
                EventCodec.encode(event))).get();
        switch (type) {
            case BLOCK_STORED -> blocks.forEach(b -> expected.computeIfAbsent(b, x -> new HashSet<>()).add(node));
            case BLOCK_REMOVED -> blocks.forEach(b -> {
                Set<String> holders = expected.get(b);
                if (holders != null && holders.remove(node) && holders.isEmpty()) {
                    expected.remove(b);
                }
            });
            case ALL_BLOCKS_CLEARED -> {
                expected.values().forEach(holders -> holders.remove(node));
                expected.values().removeIf(Set::isEmpty);
            }
        }
    }

    private static Map<Long, Set<String>> index(KafkaTestClient reader, WriterAudit audit) {
        Map<Long, Set<String>> index = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : reader.readAll(Topics.CACHE_KV_INDEX)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() == null) {
                index.remove(Long.parseUnsignedLong(key));
            } else {
                KvIndexEntry entry = EventCodec.decode(record.value(), KvIndexEntry.class, key);
                index.put(entry.blockHash(), new HashSet<>(entry.nodes()));
                audit.record(key, entry.writer());
            }
        }
        return index;
    }

    private static WriterAudit holdingsAudit(KafkaTestClient reader) {
        WriterAudit audit = new WriterAudit();
        for (ConsumerRecord<byte[], byte[]> record : reader.readAll(Topics.CACHE_KV_HOLDINGS)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() != null) {
                audit.record(key, EventCodec.decode(record.value(), KvHoldingEntry.class, key).writer());
            }
        }
        return audit;
    }

    /** One cache-service replica's two stages. */
    private record Replica(NodeOwners nodes, BlockOwners blocks) implements AutoCloseable {

        static Replica start(KraftBroker broker, String name, Set<String> gone) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            NodeOwners nodes = new NodeOwners(name, broker.bootstrapServers(), Map.of(),
                    q -> writer(broker, "cache-service.kv-q" + q), PARTITIONS, 1_000, Duration.ofMillis(100),
                    Duration.ofSeconds(6), new NodeOwners.Estimates(Duration.ofMinutes(10), 64, 4_096),
                    Duration.ofHours(1), gone::contains, (record, reason) -> { }, Relays.NONE, Clock.systemUTC(),
                    meters);
            BlockOwners blocks = new BlockOwners(name, broker.bootstrapServers(), Map.of(),
                    p -> writer(broker, "cache-service.index-p" + p), PARTITIONS, 1_000, Duration.ofMillis(100),
                    Duration.ofSeconds(6), Clock.systemUTC());
            nodes.start();
            blocks.start();
            return new Replica(nodes, blocks);
        }

        private static TermWriter writer(KraftBroker broker, String transactionalId) {
            return new TermWriter(transactionalId, broker.bootstrapServers(), Map.of(), Duration.ofSeconds(10),
                    config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
                    new SimpleMeterRegistry());
        }

        int owned() {
            return nodes.owned().size() + blocks.owned().size();
        }

        @Override
        public void close() {
            nodes.close();
            blocks.close();
        }
    }

    /**
     * Once the node owners have committed every events partition up to its end (all of it published), deletes the
     * partitions' records up to there.
     */
    private static void dropPublishedEvents(KraftBroker broker) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int q = 0; q < PARTITIONS; q++) {
                latest.put(new TopicPartition(Topics.CACHE_KV_EVENTS, q), OffsetSpec.latest());
            }
            Map<TopicPartition, RecordsToDelete> drop = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, end) ->
                    drop.put(tp, RecordsToDelete.beforeOffset(end.offset())));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(NodeOwners.GROUP)
                        .partitionsToOffsetAndMetadata().get();
                return drop.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                        && committed.get(e.getKey()).offset() == e.getValue().beforeOffset());
            });
            admin.deleteRecords(drop).all().get();
        }
    }

    @Test
    void theIndexSaysWhatTheEventsSayWhoeverOwnsWhichPartitionsAndNoKeyHasTwoWriters() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                        broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer());
                KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                Map<String, String> compact = Map.of("cleanup.policy", "compact");
                admin.createTopics(List.of(new NewTopic(Topics.CACHE_KV_EVENTS, PARTITIONS, (short) 1),
                        new NewTopic(Topics.CACHE_KV_HOLDINGS, PARTITIONS, (short) 1).configs(compact),
                        new NewTopic(Topics.CACHE_KV_INDEX, PARTITIONS, (short) 1).configs(compact))).all().get();
            }
            // Given ten nodes that stored overlapping blocks before any replica ran
            for (int n = 0; n < NODES.size(); n++) {
                event(producer, NODES.get(n), KvEventType.BLOCK_STORED, List.of(100L + n, 200L + n % 3, 300L));
            }
            Set<String> gone = java.util.concurrent.ConcurrentHashMap.newKeySet();
            Replica a = Replica.start(broker, "cache-a", gone);
            Replica b = null;
            try {
                // Then replica A alone publishes the index the events say
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(index(reader,
                        new WriterAudit())).isEqualTo(expected));

                // When B joins and both topics' partitions split, and the nodes go on storing and evicting
                b = Replica.start(broker, "cache-b", gone);
                Replica second = b;
                await().atMost(Duration.ofSeconds(60)).until(() -> second.owned() > 0 && a.owned() > 0
                        && a.owned() + second.owned() == 2 * PARTITIONS);
                for (int n = 0; n < NODES.size(); n++) {
                    String node = NODES.get(n);
                    event(producer, node, KvEventType.BLOCK_STORED, List.of(400L + n, -1L - n % 2));
                    event(producer, node, KvEventType.BLOCK_REMOVED, List.of(200L + n % 3));
                }
                event(producer, "sonnet-2", KvEventType.ALL_BLOCKS_CLEARED, List.of());
                // Then the index follows
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(index(reader,
                        new WriterAudit())).isEqualTo(expected));

                // When a node that sends no KV events is routed a prompt (every replica reads every decision), and
                // a reporting node goes DOWN past the grace period
                for (Replica replica : List.of(a, second)) {
                    replica.nodes().observe(dev.zerolayer.cache.TestEvents.decision("s-1", "approx-1", false, 900L,
                            901L));
                }
                expected.computeIfAbsent(900L, x -> new HashSet<>()).add("approx-1");
                expected.computeIfAbsent(901L, x -> new HashSet<>()).add("approx-1");
                gone.add("vllm-c");
                expected.values().forEach(holders -> holders.remove("vllm-c"));
                expected.values().removeIf(Set::isEmpty);
                // Then the estimate is published once, by the owner of the node's partition, and the DOWN node's
                // blocks leave the index
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(index(reader,
                        new WriterAudit())).isEqualTo(expected));

                // When the events published so far leave the log (as retention drops them) and every node reports
                // once more, a block it already holds
                dropPublishedEvents(broker);
                for (String node : NODES) {
                    if (!gone.contains(node)) {
                        event(producer, node, KvEventType.BLOCK_STORED, List.of(100L + NODES.indexOf(node)));
                    }
                }
                // and A leaves, B takes both stages over and goes on
                a.close();
                await().atMost(Duration.ofSeconds(60)).until(() -> second.owned() == 2 * PARTITIONS);
                // (B goes on with the estimates of the partitions it took: it saw every decision)
                for (int n = 0; n < NODES.size(); n += 2) {
                    event(producer, NODES.get(n), KvEventType.BLOCK_REMOVED, List.of(300L));
                }
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(index(reader,
                        new WriterAudit())).isEqualTo(expected));
                // (from the holdings A published and the offsets it committed: a replay of the log would have lost
                // every block stored before the drop)
                assertThat(second.nodes().takeoversResumed()).isPositive();

                // and no key of either topic ever had two writers
                WriterAudit indexAudit = new WriterAudit();
                index(reader, indexAudit);
                assertThat(indexAudit.violations()).isEmpty();
                WriterAudit holdings = holdingsAudit(reader);
                assertThat(holdings.violations()).isEmpty();
                assertThat(holdings.records()).isGreaterThan(20);
            } finally {
                a.close();
                if (b != null) {
                    b.close();
                }
            }
        }
    }
}
