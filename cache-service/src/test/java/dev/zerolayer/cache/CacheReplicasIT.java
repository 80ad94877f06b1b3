package dev.zerolayer.cache;

import static dev.zerolayer.cache.TestEvents.decision;
import static dev.zerolayer.cache.TestEvents.kv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.publication.CachePublisher;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.testing.WriterAudit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two cache-service replicas on a broker of their own: both hold the whole index and every session (either answers
 * lookups), only the leader publishes, each record stamped with it and its term; when the leader stops, the other
 * reconciles with the topics and publishes exactly what changed meanwhile, under a later term; no key ever has two
 * writers in one term.
 */
class CacheReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private static RunningService replica(KraftBroker broker, String name) {
        return RunningService.start(CacheApplication.class, broker.bootstrapServers(),
                "zerolayer.cache.publish-interval=50ms", "zerolayer.cache.maintenance-interval=200ms",
                "zerolayer.replica-id=" + name);
    }

    @Test
    void theLeaderAlonePublishesAndTheOtherTakesOverWithWhatChangedMeanwhile(@TempDir Path kafkaDir)
            throws Exception {
        try (KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers());
             RunningService a = replica(broker, "cache-a");
             RunningService b = replica(broker, "cache-b")) {

            // Given two replicas, one of which writes
            await().atMost(WAIT).until(() -> a.bean(CachePublisher.class).writing()
                    || b.bean(CachePublisher.class).writing());
            RunningService leader = a.bean(CachePublisher.class).writing() ? a : b;
            RunningService follower = leader == a ? b : a;
            assertThat(follower.bean(Leadership.class).isLeader()).isFalse();
            assertThat(follower.bean(CachePublisher.class).writing()).isFalse();

            // When a node stores five blocks and a session sends two requests
            CacheServiceIT.awaitReadingDecisions(kafka, a);
            CacheServiceIT.awaitReadingDecisions(kafka, b);
            kafka.publish(Topics.CACHE_KV_EVENTS, kv("node-1", 1, KvEventType.BLOCK_STORED, 11L, 12L, 13L, 14L, 15L));
            kafka.publish(Topics.ROUTER_DECISIONS, decision("session-1", "node-1", false, 11L, 12L));
            await().atMost(WAIT).until(() -> b.bean(SessionTracker.class).get("session-1", Instant.now()).isPresent()
                    && a.bean(SessionTracker.class).get("session-1", Instant.now()).isPresent());

            // Then both replicas hold them, and the leader alone published them
            await().atMost(WAIT).until(() -> index(kafka).keySet().containsAll(List.of("11", "12", "13", "14", "15"))
                    && sessions(kafka).containsKey("session-1"));
            await().atMost(WAIT).until(() -> follower.bean(BlockIndex.class).holds(15L, "node-1"));
            String leaderName = leader.bean(Leadership.class).writer().orElseThrow().replica();
            assertThat(writers(kafka)).extracting(Writer::replica).containsOnly(leaderName);
            long firstTerm = leader.bean(Leadership.class).writer().orElseThrow().generation();

            // When the leader stops and, before the other writes, the node drops a block and stores another
            leader.close();
            kafka.publish(Topics.CACHE_KV_EVENTS, kv("node-1", 2, KvEventType.BLOCK_REMOVED, 11L));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv("node-1", 3, KvEventType.BLOCK_STORED, 16L));
            await().atMost(WAIT).until(() -> follower.bean(CachePublisher.class).writing());
            kafka.publish(Topics.ROUTER_DECISIONS, decision("session-2", "node-1", false, 16L));

            // Then the index and the sessions on the topics are exactly the survivor's, written under a later term
            await().atMost(WAIT).until(() -> index(kafka).equals(Map.of("12", List.of("node-1"), "13",
                    List.of("node-1"), "14", List.of("node-1"), "15", List.of("node-1"), "16", List.of("node-1")))
                    && sessions(kafka).containsKey("session-2"));
            Writer survivor = follower.bean(Leadership.class).writer().orElseThrow();
            assertThat(survivor.generation()).isGreaterThan(firstTerm);
            assertThat(lastIndexRecord(kafka, "16").writer()).isEqualTo(survivor);
            assertThat(sessions(kafka).get("session-1").stickyNode()).isEqualTo("node-1");

            // And no key had two writers in one term, and every record said who wrote it
            WriterAudit audit = new WriterAudit();
            for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_KV_INDEX)) {
                if (r.value() != null) {
                    audit.record(key(r), EventCodec.decode(r.value(), KvIndexEntry.class).writer());
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_SESSIONS)) {
                if (r.value() != null) {
                    audit.record(key(r), EventCodec.decode(r.value(), SessionEntry.class).writer());
                }
            }
            assertThat(audit.records()).isGreaterThanOrEqualTo(8);
            assertThat(audit.violations()).isEmpty();
        }
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

    private static List<Writer> writers(KafkaTestClient kafka) {
        List<Writer> writers = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_KV_INDEX)) {
            if (r.value() != null) {
                writers.add(EventCodec.decode(r.value(), KvIndexEntry.class).writer());
            }
        }
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(Topics.CACHE_SESSIONS)) {
            if (r.value() != null) {
                writers.add(EventCodec.decode(r.value(), SessionEntry.class).writer());
            }
        }
        return writers;
    }
}
