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
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Two cache-service replicas on a broker of their own: they split the partitions of the KV events, the holdings and
 * the sessions between them (each publishing the holdings, index records and sessions of its own, and relaying the
 * vLLM nodes of its events partitions), and either answers lookups from its view of the whole index; when one stops,
 * the other takes its partitions and relays over and publishes exactly what changed meanwhile; no key of the index,
 * the holdings or the sessions ever has two writers.
 */
class CacheReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PARTITIONS = Topics.CACHE_KV_EVENTS_TOPIC.partitions();
    private static final int SESSION_PARTITIONS = Topics.CACHE_SESSIONS_TOPIC.partitions();
    private static final int ALL = 2 * PARTITIONS + SESSION_PARTITIONS;

    /** A replica bridging the vLLM nodes {@code vllm} publishing at {@code ports} (both replicas bridge all). */
    private static RunningService replica(KraftBroker broker, String name, List<String> vllm, List<Integer> ports) {
        List<String> props = new ArrayList<>(List.of("zerolayer.cache.publish-interval=50ms",
                "zerolayer.cache.maintenance-interval=200ms", "zerolayer.replica-id=" + name));
        for (int i = 0; i < vllm.size(); i++) {
            props.add("zerolayer.cache.vllm-bridge.endpoints[" + i + "].node-id=" + vllm.get(i));
            props.add("zerolayer.cache.vllm-bridge.endpoints[" + i + "].address=tcp://127.0.0.1:" + ports.get(i));
            props.add("zerolayer.cache.vllm-bridge.endpoints[" + i + "].topic=kv@");
        }
        return RunningService.start(CacheApplication.class, broker.bootstrapServers(), props.toArray(String[]::new));
    }

    /**
     * Sends block {@code firstBlock + i} from vLLM node i's publisher (each of {@code nodes}, again and again, as a
     * subscriber may not have joined yet) until {@code view} shows every node holding its block.
     */
    private static void relay(List<ZMQ.Socket> pubs, List<String> vllm, List<Integer> nodes, long firstBlock,
            BlockIndex view) throws Exception {
        long[] sequence = {System.currentTimeMillis()};
        Map<Integer, byte[]> batches = new HashMap<>();
        for (int i : nodes) {
            batches.put(i, CacheServiceIT.storedBatch(List.of(firstBlock + i)));
        }
        // in this thread: a ZeroMQ socket must not be used from Awaitility's polling threads
        await().pollInSameThread().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            for (int i : nodes) {
                CacheServiceIT.zmqSend(pubs.get(i), "kv@" + vllm.get(i), sequence[0]++, batches.get(i));
            }
            return nodes.stream().allMatch(i -> view.holds(firstBlock + i, vllm.get(i)));
        });
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
    void theReplicasSplitIndexSessionsAndRelaysAndTheSurvivorTakesAllOver(@TempDir Path kafkaDir) throws Exception {
        List<String> vllm = onePerPartition("vllm-", PARTITIONS);
        List<Integer> all = IntStream.range(0, vllm.size()).boxed().toList();
        try (ZContext zmq = new ZContext();
             KraftBroker broker = KraftBroker.create(kafkaDir).start();
             KafkaTestClient kafka = new KafkaTestClient(broker.bootstrapServers())) {
            List<ZMQ.Socket> pubs = new ArrayList<>();
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < vllm.size(); i++) {
                pubs.add(zmq.createSocket(SocketType.PUB));
                ports.add(pubs.get(i).bindToRandomPort("tcp://127.0.0.1"));
            }
            try (RunningService a = replica(broker, "cache-a", vllm, ports);
                 RunningService b = replica(broker, "cache-b", vllm, ports)) {
                splitAndTakeOver(kafka, a, b, pubs, vllm, all);
            }
        }
    }

    private static void splitAndTakeOver(KafkaTestClient kafka, RunningService a, RunningService b,
            List<ZMQ.Socket> pubs, List<String> vllm, List<Integer> all) throws Exception {
        // Given two replicas sharing the partitions of all three stages
        await().atMost(WAIT).until(() -> a.bean(NodeOwners.class).owned().size() > 0
                && b.bean(NodeOwners.class).owned().size() > 0 && a.bean(SessionOwners.class).owned().size() > 0
                && b.bean(SessionOwners.class).owned().size() > 0 && owned(a) + owned(b) == ALL);

        // Then each bridged vLLM node is relayed by the replica owning its events partition, by one only
        await().atMost(WAIT).until(() -> a.bean(NodeOwners.class).relayedNodes().size()
                + b.bean(NodeOwners.class).relayedNodes().size() == vllm.size());
        List<String> relayedByA = a.bean(NodeOwners.class).relayedNodes();
        assertThat(relayedByA).isNotEmpty().doesNotContainAnyElementsOf(b.bean(NodeOwners.class).relayedNodes());
        assertThat(relayedByA).allSatisfy(node -> assertThat(a.bean(NodeOwners.class).owned())
                .contains(PartitionOwnership.partitionOf(node, PARTITIONS)));

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
        // and every vLLM node stores one over ZeroMQ
        relay(pubs, vllm, all, 1_000L, a.bean(BlockIndex.class));
        all.forEach(i -> expected.put(Long.toString(1_000L + i), List.of(vllm.get(i))));
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
        assertThat(b.bean(NodeOwners.class).relayedNodes()).containsExactlyInAnyOrderElementsOf(vllm);
        // and the vLLM nodes A relayed store another block each, now through B's relays
        List<Integer> wereA = all.stream().filter(i -> relayedByA.contains(vllm.get(i))).toList();
        relay(pubs, vllm, wereA, 2_000L, b.bean(BlockIndex.class));
        wereA.forEach(i -> expected.put(Long.toString(2_000L + i), List.of(vllm.get(i))));
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
