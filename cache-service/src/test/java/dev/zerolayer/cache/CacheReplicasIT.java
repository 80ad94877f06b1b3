package dev.zerolayer.cache;

import static dev.zerolayer.cache.TestEvents.decision;
import static dev.zerolayer.cache.TestEvents.kv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.publication.CachePublisher;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.Leadership;
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
 * Two cache-service replicas on a broker of their own: they split the KV-event and holdings partitions between them
 * (each publishing the holdings and index records of its own), the leader alone publishes the sessions, and either
 * answers lookups from its view of the whole index; when one stops, the other takes its partitions and the sessions
 * over and publishes exactly what changed meanwhile; no key of the index, the holdings or the sessions ever has two
 * writers.
 */
class CacheReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PARTITIONS = Topics.CACHE_KV_EVENTS_TOPIC.partitions();

    private static RunningService replica(KraftBroker broker, String name) {
        return RunningService.start(CacheApplication.class, broker.bootstrapServers(),
                "zerolayer.cache.publish-interval=50ms", "zerolayer.cache.maintenance-interval=200ms",
                "zerolayer.replica-id=" + name);
    }

    /** One node id per KV-event partition, so that every partition (and so both replicas) has a node to publish. */
    private static List<String> onePerPartition() {
        String[] nodes = new String[PARTITIONS];
        for (int i = 0, found = 0; found < PARTITIONS; i++) {
            String node = "node-" + i;
            int partition = PartitionOwnership.partitionOf(node, PARTITIONS);
            if (nodes[partition] == null) {
                nodes[partition] = node;
                found++;
            }
        }
        return List.of(nodes);
    }

    private static int owned(RunningService service) {
        return service.bean(NodeOwners.class).owned().size() + service.bean(BlockOwners.class).owned().size();
    }

    @Test
    void theReplicasSplitTheIndexTheLeaderWritesTheSessionsAndTheSurvivorTakesAllOver(@TempDir Path kafkaDir)
            throws Exception {
        try (KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
             RunningService a = replica(broker, "cache-a");
             RunningService b = replica(broker, "cache-b")) {

            // Given two replicas sharing both stages' partitions, one of which leads
            await().atMost(WAIT).until(() -> owned(a) > 0 && owned(b) > 0 && owned(a) + owned(b) == 2 * PARTITIONS);
            await().atMost(WAIT).until(() -> a.bean(CachePublisher.class).writing()
                    || b.bean(CachePublisher.class).writing());
            RunningService leader = a.bean(CachePublisher.class).writing() ? a : b;
            RunningService follower = leader == a ? b : a;
            assertThat(follower.bean(Leadership.class).isLeader()).isFalse();

            // When a node of every partition stores blocks and a session sends a request
            CacheServiceIT.awaitReadingDecisions(kafka, a);
            CacheServiceIT.awaitReadingDecisions(kafka, b);
            List<String> nodes = onePerPartition();
            Map<String, List<String>> expected = new HashMap<>();
            for (int n = 0; n < nodes.size(); n++) {
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(n), 1, KvEventType.BLOCK_STORED, 10L + n, 99L));
                expected.put(Long.toString(10L + n), List.of(nodes.get(n)));
            }
            expected.put("99", nodes.stream().sorted().toList());
            kafka.publish(Topics.ROUTER_DECISIONS, decision("session-1", nodes.get(0), false, 10L));

            // Then the index says it, both replicas' views hold it, the holdings and index records came from both
            // replicas, and the sessions from the leader alone
            await().atMost(WAIT).until(() -> index(kafka).equals(expected) && sessions(kafka).containsKey("session-1"));
            await().atMost(WAIT).until(() -> a.bean(BlockIndex.class).holders(99L).size() == PARTITIONS
                    && b.bean(BlockIndex.class).holders(99L).size() == PARTITIONS);
            assertThat(writers(kafka, Topics.CACHE_KV_HOLDINGS)).extracting(Writer::replica)
                    .contains("cache-a", "cache-b");
            assertThat(writers(kafka, Topics.CACHE_KV_INDEX)).extracting(Writer::replica).isSubsetOf("cache-a",
                    "cache-b");
            String leaderName = leader.bean(Leadership.class).writer().orElseThrow().replica();
            assertThat(writers(kafka, Topics.CACHE_SESSIONS)).extracting(Writer::replica).containsOnly(leaderName);
            long firstTerm = leader.bean(Leadership.class).writer().orElseThrow().generation();

            // When the leader stops and, before the other takes over, a node drops a block and another stores one
            leader.close();
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(1), 2, KvEventType.BLOCK_REMOVED, 11L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(nodes.get(2), 2, KvEventType.BLOCK_STORED, 16L));
            expected.remove("11");
            expected.put("16", List.of(nodes.get(2)));
            await().atMost(WAIT).until(() -> owned(follower) == 2 * PARTITIONS
                    && follower.bean(CachePublisher.class).writing());
            kafka.publish(Topics.ROUTER_DECISIONS, decision("session-2", nodes.get(2), false, 16L));

            // Then the index and the sessions on the topics are exactly the survivor's, written by it
            await().atMost(WAIT).until(() -> index(kafka).equals(expected) && sessions(kafka).containsKey("session-2"));
            String survivor = follower.bean(Leadership.class).writer().orElseThrow().replica();
            assertThat(follower.bean(Leadership.class).writer().orElseThrow().generation()).isGreaterThan(firstTerm);
            assertThat(lastIndexRecord(kafka, "16").writer().replica()).isEqualTo(survivor);
            assertThat(sessions(kafka).get("session-1").stickyNode()).isEqualTo(nodes.get(0));
            await().atMost(WAIT).until(() -> follower.bean(BlockIndex.class).holders(11L).isEmpty()
                    && follower.bean(BlockIndex.class).holds(16L, nodes.get(2)));

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
