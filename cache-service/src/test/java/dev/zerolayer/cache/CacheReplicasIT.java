package dev.zerolayer.cache;

import static dev.zerolayer.cache.TestEvents.decision;
import static dev.zerolayer.cache.TestEvents.kv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.session.SessionOwners;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.testing.WriterAudit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two cache-service replicas on a broker of their own: they split the partitions of the KV events, the holdings and
 * the sessions between them (each publishing the holdings, index records and sessions of its own), and either answers
 * lookups from its view of the whole index; when one stops, the other takes its partitions over and publishes exactly
 * what changed meanwhile; no key of the index, the holdings or the sessions ever has two writers.
 */
class CacheReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PARTITIONS = Topics.CACHE_KV_EVENTS_TOPIC.partitions();
    private static final int SESSION_PARTITIONS = Topics.CACHE_SESSIONS_TOPIC.partitions();
    private static final int ALL = 2 * PARTITIONS + SESSION_PARTITIONS;

    private static RunningService replica(KraftBroker broker, String name) {
        return RunningService.start(CacheApplication.class, broker.bootstrapServers(),
                "zerolayer.cache.publish-interval=50ms", "zerolayer.cache.maintenance-interval=200ms",
                "zerolayer.replica-id=" + name);
    }

    /** One key per partition of a topic of {@code partitions}, so that every partition has one to publish. */
    private static List<String> onePerPartition(String prefix, int partitions) {
        String[] keys = new String[partitions];
        for (int i = 0, found = 0; found < partitions; i++) {
            String key = prefix + i;
            int partition = PartitionOwnership.partitionOf(key, partitions);
            if (keys[partition] == null) {
                keys[partition] = key;
                found++;
            }
        }
        return List.of(keys);
    }

    private static int owned(RunningService service) {
        return service.bean(NodeOwners.class).owned().size() + service.bean(BlockOwners.class).owned().size()
                + service.bean(SessionOwners.class).owned().size();
    }

    @Test
    void theReplicasSplitIndexAndSessionsAndTheSurvivorTakesAllOver(@TempDir Path kafkaDir) throws Exception {
        try (KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
             RunningService a = replica(broker, "cache-a");
             RunningService b = replica(broker, "cache-b")) {

            // Given two replicas sharing the partitions of all three stages
            await().atMost(WAIT).until(() -> a.bean(NodeOwners.class).owned().size() > 0
                    && b.bean(NodeOwners.class).owned().size() > 0 && a.bean(SessionOwners.class).owned().size() > 0
                    && b.bean(SessionOwners.class).owned().size() > 0 && owned(a) + owned(b) == ALL);

            // When a node of every events partition stores blocks and a session of every sessions partition sends a
            // request
            CacheServiceIT.awaitReadingDecisions(kafka, a);
            CacheServiceIT.awaitReadingDecisions(kafka, b);
            List<String> nodes = onePerPartition("node-", PARTITIONS);
            List<String> sessionIds = onePerPartition("session-", SESSION_PARTITIONS);
            Map<String, List<String>> expected = new HashMap<>();
            for (int n = 0; n < nodes.size(); n++) {
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(n), 1, KvEventType.BLOCK_STORED, 10L + n, 99L));
                expected.put(Long.toString(10L + n), List.of(nodes.get(n)));
            }
            expected.put("99", nodes.stream().sorted().toList());
            for (String session : sessionIds) {
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, nodes.get(0), false, 10L));
            }

            // Then the index says it, both replicas' views hold it, and the holdings and the sessions came from both
            // replicas, each key from one
            await().atMost(WAIT).until(() -> index(kafka).equals(expected)
                    && sessions(kafka).keySet().containsAll(sessionIds));
            await().atMost(WAIT).until(() -> a.bean(BlockIndex.class).holders(99L).size() == PARTITIONS
                    && b.bean(BlockIndex.class).holders(99L).size() == PARTITIONS);
            assertThat(writers(kafka, Topics.CACHE_KV_HOLDINGS)).extracting(Writer::replica)
                    .contains("cache-a", "cache-b");
            assertThat(writers(kafka, Topics.CACHE_KV_INDEX)).extracting(Writer::replica).isSubsetOf("cache-a",
                    "cache-b");
            assertThat(sessionIds).extracting(id -> sessions(kafka).get(id).writer().replica())
                    .contains("cache-a", "cache-b");
            long firstGeneration = b.bean(SessionOwners.class).generation();

            // When A stops and, before B takes over, a node drops a block and another stores one
            a.close();
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(1), 2, KvEventType.BLOCK_REMOVED, 11L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(2), 2, KvEventType.BLOCK_STORED, 16L));
            expected.remove("11");
            expected.put("16", List.of(nodes.get(2)));
            await().atMost(WAIT).until(() -> owned(b) == ALL);
            for (String session : sessionIds) {
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, nodes.get(2), false, 16L));
            }

            // Then the index and the sessions on the topics are exactly the survivor's, written by it
            await().atMost(WAIT).until(() -> index(kafka).equals(expected) && sessionIds.stream()
                    .allMatch(id -> sessions(kafka).get(id).recentPrefixes().size() == 2));
            assertThat(b.bean(SessionOwners.class).generation()).isGreaterThan(firstGeneration);
            assertThat(lastIndexRecord(kafka, "16").writer().replica()).isEqualTo("cache-b");
            assertThat(sessionIds).allSatisfy(id -> assertThat(sessions(kafka).get(id).writer())
                    .isEqualTo(new Writer("cache-b", b.bean(SessionOwners.class).generation())));
            await().atMost(WAIT).until(() -> b.bean(BlockIndex.class).holders(11L).isEmpty()
                    && b.bean(BlockIndex.class).holds(16L, nodes.get(2)));

            // And no key had two writers in one generation, and every record said who wrote it
            for (String topic : List.of(Topics.CACHE_KV_INDEX, Topics.CACHE_KV_HOLDINGS, Topics.CACHE_SESSIONS)) {
                WriterAudit audit = new WriterAudit();
                for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(topic)) {
                    if (r.value() != null) {
                        audit.record(key(r), writerOf(topic, r.value()));
                    }
                }
                assertThat(audit.records()).as(topic).isGreaterThanOrEqualTo(2);
                assertThat(audit.violations()).as(topic).isEmpty();
            }
        }
    }

    private static Writer writerOf(String topic, byte[] value) {
        return switch (topic) {
            case Topics.CACHE_KV_INDEX -> EventCodec.decode(value, KvIndexEntry.class).writer();
            case Topics.CACHE_KV_HOLDINGS -> EventCodec.decode(value, KvHoldingEntry.class).writer();
            default -> EventCodec.decode(value, SessionEntry.class).writer();
        };
    }

    private static List<Writer> writers(KafkaTestClient kafka, String topic) {
        List<Writer> writers = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(topic)) {
            if (r.value() != null) {
                writers.add(writerOf(topic, r.value()));
            }
        }
        return writers;
    }

    private static String key(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.key(), StandardCharsets.UTF_8);
    }

    /** The topic's latest holders per block (tombstoned blocks, and the probes' approximate block, absent). */
    private static Map<String, List<String>> index(KafkaTestClient kafka) {
        Map<String, List<String>> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_KV_INDEX)) {
            if (r.value() == null) {
                latest.remove(key(r));
            } else {
                latest.put(key(r), EventCodec.decode(r.value(), KvIndexEntry.class).nodes());
            }
        }
        latest.values().removeIf(nodes -> nodes.equals(List.of("probe-node")));
        return latest;
    }

    private static KvIndexEntry lastIndexRecord(KafkaTestClient kafka, String block) {
        KvIndexEntry last = null;
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_KV_INDEX)) {
            if (r.value() != null && key(r).equals(block)) {
                last = EventCodec.decode(r.value(), KvIndexEntry.class);
            }
        }
        return last;
    }

    private static Map<String, SessionEntry> sessions(KafkaTestClient kafka) {
        Map<String, SessionEntry> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_SESSIONS)) {
            if (r.value() == null) {
                latest.remove(key(r));
            } else {
                latest.put(key(r), EventCodec.decode(r.value(), SessionEntry.class));
            }
        }
        return latest;
    }
}
