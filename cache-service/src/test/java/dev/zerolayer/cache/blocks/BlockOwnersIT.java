package dev.zerolayer.cache.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.WriterAudit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Block owners against a real broker: one replica folds the holdings of every partition into the index; a second
 * joining splits the partitions, each publishing only its own blocks; the first leaving hands its partitions over
 * through the topics; at every step the index is the union of the holdings, and no key ever had two writers.
 */
class BlockOwnersIT {

    private static final int PARTITIONS = 6;

    @TempDir
    Path dir;

    private final Map<String, List<String>> holdings = new TreeMap<>();

    /** {@code count} node ids keyed to events partition {@code partition}. */
    private static List<String> nodesOf(int partition, int count) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; nodes.size() < count; i++) {
            String node = "node-" + i;
            if (PartitionOwnership.partitionOf(node, PARTITIONS) == partition) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** Sends a node owner's record (a tombstone when {@code nodes} is empty) to the partition of its block. */
    private void hold(KafkaProducer<byte[], byte[]> producer, long block, int eventsPartition, List<String> nodes)
            throws Exception {
        String key = KvHoldingEntry.key(block, eventsPartition);
        byte[] value = nodes.isEmpty() ? null : EventCodec.encode(new KvHoldingEntry("evt-" + key, Instant.now(),
                KvHoldingEntry.SCHEMA_VERSION, block, eventsPartition, nodes, new Writer("node-owner", 1)));
        int partition = PartitionOwnership.partitionOf(Long.toUnsignedString(block), PARTITIONS);
        producer.send(new ProducerRecord<>(Topics.CACHE_KV_HOLDINGS, partition,
                key.getBytes(StandardCharsets.UTF_8), value)).get();
        if (nodes.isEmpty()) {
            holdings.remove(key);
        } else {
            holdings.put(key, nodes);
        }
    }

    /** Block → holders as the holdings say (the union over events partitions). */
    private Map<Long, Set<String>> expectedIndex() {
        Map<Long, Set<String>> index = new TreeMap<>();
        holdings.forEach((key, nodes) -> index.computeIfAbsent(KvHoldingEntry.blockOf(key), b -> new HashSet<>())
                .addAll(nodes));
        return index;
    }

    /** Block → holders as the index topic says now (its latest record per key), and the writer audit of it all. */
    private static Map<Long, Set<String>> publishedIndex(KafkaTestClient reader, WriterAudit audit) {
        Map<Long, Set<String>> index = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : reader.readAll(Topics.CACHE_KV_INDEX)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            long block = Long.parseUnsignedLong(key);
            if (record.value() == null) {
                index.remove(block);
                audit.record(key + "#tombstone-" + record.offset(), new Writer("tombstone", Long.MAX_VALUE));
            } else {
                KvIndexEntry entry = EventCodec.decode(record.value(), KvIndexEntry.class, key);
                index.put(block, new HashSet<>(entry.nodes()));
                audit.record(key, entry.writer());
            }
        }
        return index;
    }

    private BlockOwners replica(KraftBroker broker, String name) {
        return replica(broker, name, Clock.systemUTC(), Map.of());
    }

    private BlockOwners replica(KraftBroker broker, String name, Clock clock, Map<String, ?> clientProperties) {
        return new BlockOwners(name, broker.bootstrapServers(), clientProperties, p -> new TermWriter(
                "cache-service.index-p" + p, broker.bootstrapServers(), Map.of(), Duration.ofSeconds(10),
                config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
                new SimpleMeterRegistry()), PARTITIONS, 1_000, Duration.ofMillis(100), Duration.ofSeconds(6),
                clock);
    }

    private static void createTopics(KraftBroker broker) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<String, String> compact = Map.of("cleanup.policy", "compact");
            admin.createTopics(List.of(
                    new NewTopic(Topics.CACHE_KV_HOLDINGS, PARTITIONS, (short) 1).configs(compact),
                    new NewTopic(Topics.CACHE_KV_INDEX, PARTITIONS, (short) 1).configs(compact))).all().get();
        }
    }

    /** The system clock, except that once armed, the next reading waits until released (stalls its caller). */
    private static final class StallingClock extends Clock {

        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CountDownLatch stalled = new java.util.concurrent.CountDownLatch(1);
        private volatile boolean armed;

        @Override
        public Instant instant() {
            if (armed) {
                armed = false;
                stalled.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Instant.now();
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @Test
    void anOwnerStalledPastItsPollIntervalIsReplacedAndItsLateRoundIsFencedNeverRead() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                        broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer());
                KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            createTopics(broker);
            // Given replica A owning every partition, with a poll interval of 8 s, the index published
            Map<String, Object> shortPoll = Map.of("max.poll.interval.ms", 8_000);
            StallingClock clockOfA = new StallingClock();
            BlockOwners a = replica(broker, "cache-a", clockOfA, shortPoll);
            BlockOwners b = replica(broker, "cache-b", Clock.systemUTC(), shortPoll);
            try {
                for (long block = 1; block <= 12; block++) {
                    hold(producer, block, (int) (block % PARTITIONS), nodesOf((int) (block % PARTITIONS), 1));
                }
                a.start();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));
                long generationOfA = a.generation();

                // When A stalls in the middle of a round (after its fold, before its write) and B joins
                clockOfA.armed = true;
                hold(producer, 5L, 0, nodesOf(0, 2));
                assertThat(clockOfA.stalled.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                b.start();

                // Then the group drops A once its poll interval passes, and B takes every partition over,
                // publishing the change A had not
                await().atMost(Duration.ofSeconds(60)).until(() -> b.owned().size() == PARTITIONS);
                assertThat(b.generation()).isGreaterThan(generationOfA);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));

                // and when A resumes, its late round is refused by the broker (B's writers fenced A's) and it gives
                // its partitions up: no reader ever sees a record of A after B's
                clockOfA.released.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> a.owned().isEmpty());
                hold(producer, 6L, 0, nodesOf(0, 3));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));
                WriterAudit audit = new WriterAudit();
                publishedIndex(reader, audit);
                assertThat(audit.violations()).isEmpty();
                assertThat(audit.lastWriters().get("5").replica()).isEqualTo("cache-b");
            } finally {
                clockOfA.released.countDown();
                a.close();
                b.close();
            }
        }
    }

    @Test
    void theIndexIsTheUnionOfTheHoldingsWhoeverOwnsWhichPartitionAndNoKeyHasTwoWriters() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                        broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer());
                KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                Map<String, String> compact = Map.of("cleanup.policy", "compact");
                admin.createTopics(List.of(
                        new NewTopic(Topics.CACHE_KV_HOLDINGS, PARTITIONS, (short) 1).configs(compact),
                        new NewTopic(Topics.CACHE_KV_INDEX, PARTITIONS, (short) 1).configs(compact))).all().get();
            }
            // Given 60 blocks held by nodes of two events partitions each, and replica A alone
            for (long block = 1; block <= 60; block++) {
                int q = (int) (block % PARTITIONS);
                hold(producer, block, q, nodesOf(q, 1 + (int) (block % 2)));
                hold(producer, block, (q + 1) % PARTITIONS, nodesOf((q + 1) % PARTITIONS, 1));
            }
            BlockOwners a = replica(broker, "cache-a");
            BlockOwners b = replica(broker, "cache-b");
            try {
                a.start();
                // Then A owns every partition and publishes the union of each block's holdings
                await().atMost(Duration.ofSeconds(60)).until(() -> a.owned().size() == PARTITIONS);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));

                // When B joins, the partitions split between them, each owned once
                b.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> !b.owned().isEmpty() && !a.owned().isEmpty()
                        && a.owned().size() + b.owned().size() == PARTITIONS);
                assertThat(a.owned()).doesNotContainAnyElementsOf(b.owned());
                // and holdings change everywhere: some blocks lose a partition's nodes, some gain, some go
                for (long block = 1; block <= 60; block++) {
                    int q = (int) (block % PARTITIONS);
                    if (block % 3 == 0) {
                        hold(producer, block, q, List.of());
                    } else if (block % 3 == 1) {
                        hold(producer, block, (q + 2) % PARTITIONS, nodesOf((q + 2) % PARTITIONS, 2));
                    } else {
                        hold(producer, block, q, List.of());
                        hold(producer, block, (q + 1) % PARTITIONS, List.of());
                    }
                }
                // Then the index follows, published by both
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));
                Map<String, Writer> writers = new HashMap<>();
                WriterAudit audit = new WriterAudit();
                publishedIndex(reader, audit);
                audit.lastWriters().forEach((key, writer) -> writers.put(writer.replica(), writer));
                assertThat(writers.keySet()).as("last writers of the keys").contains("cache-a", "cache-b");

                // When A leaves, B takes its partitions over through the topics and goes on
                a.close();
                await().atMost(Duration.ofSeconds(60)).until(() -> b.owned().size() == PARTITIONS);
                for (long block = 61; block <= 80; block++) {
                    int q = (int) (block % PARTITIONS);
                    hold(producer, block, q, nodesOf(q, 1));
                }
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(publishedIndex(reader,
                        new WriterAudit())).isEqualTo(expectedIndex()));

                // and over the whole run no key of the index had two writers
                WriterAudit whole = new WriterAudit();
                publishedIndex(reader, whole);
                assertThat(whole.violations()).isEmpty();
                assertThat(whole.records()).isGreaterThan(100);
            } finally {
                a.close();
                b.close();
            }
        }
    }
}
