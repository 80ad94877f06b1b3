package dev.zerolayer.bench.cache;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * KV-event ingestion load against running cache-service replicas: N synthetic nodes each send events at a fixed rate
 * for a duration (each stores 4 new blocks; once a node holds {@code window} blocks, every other event removes its
 * oldest 4), then waits until the node owners and the block owners have no lag; prints the lag of each owner over time
 * (its client id names its stage and replica), the holdings and index records published, and the CPU the
 * cache-service processes used (utime + stime).
 *
 * <p>Usage: {@code KvEventIngestRun <bootstrap-servers> [nodes=100] [events-per-node-per-second=20] [seconds=60]
 * [window=4000]}.
 */
public final class KvEventIngestRun {

    private static final int BLOCKS_PER_EVENT = 4;
    /** cache-service's node owners (input: the KV events) and block owners (input: the holdings). */
    private static final List<String> OWNER_GROUPS = List.of("cache-service.nodes", "cache-service.blocks");

    private KvEventIngestRun() {
    }

    public static void main(String[] args) throws Exception {
        String servers = args.length > 0 ? args[0] : "127.0.0.1:19092";
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int perSecond = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        int window = args.length > 4 ? Integer.parseInt(args[4]) : 4000;
        String run = UUID.randomUUID().toString().substring(0, 8);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        SplittableRandom random = new SplittableRandom(); // blocks of their own: runs never share a hash
        List<Deque<Long>> held = new ArrayList<>();
        long[] sequences = new long[nodes];
        for (int i = 0; i < nodes; i++) {
            held.add(new ArrayDeque<>());
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer()); Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
            long indexBefore = endOffsets(admin, Topics.CACHE_KV_INDEX);
            long holdingsBefore = endOffsets(admin, Topics.CACHE_KV_HOLDINGS);
            long cpuBefore = cpuTicks();
            long sent = 0;
            long startNanos = System.nanoTime();
            long tickNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
            for (long tick = 0; tick < (long) seconds * perSecond; tick++) {
                for (int i = 0; i < nodes; i++) {
                    Deque<Long> blocks = held.get(i);
                    List<Long> hashes = new ArrayList<>(BLOCKS_PER_EVENT);
                    KvEventType type;
                    if (blocks.size() >= window && tick % 2 == 1) {
                        type = KvEventType.BLOCK_REMOVED;
                        for (int b = 0; b < BLOCKS_PER_EVENT; b++) {
                            hashes.add(blocks.pollFirst());
                        }
                    } else {
                        type = KvEventType.BLOCK_STORED;
                        for (int b = 0; b < BLOCKS_PER_EVENT; b++) {
                            long hash = random.nextLong();
                            hashes.add(hash);
                            blocks.addLast(hash);
                        }
                    }
                    String node = "kv-ingest-" + run + "-" + i;
                    KvCacheEvent event = new KvCacheEvent(UUID.randomUUID().toString(), Instant.now(), 1, node,
                            ++sequences[i], type, hashes, null, 16);
                    producer.send(new ProducerRecord<>(Topics.CACHE_KV_EVENTS, node.getBytes(StandardCharsets.UTF_8),
                            EventCodec.encode(event)));
                    sent++;
                }
                long wait = startNanos + (tick + 1) * tickNanos - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (tick % perSecond == perSecond - 1) {
                    // a replica's group has offsets once it consumed a first record: listed again every second
                    System.out.printf("t=%ds sent=%d lag=%s%n", (tick + 1) / perSecond, sent, lags(admin));
                }
            }
            producer.flush();
            double sendSeconds = (System.nanoTime() - startNanos) / 1e9;
            Map<String, Long> atEnd = lags(admin);
            Map<String, Long> after = atEnd;
            long drainStart = System.nanoTime();
            while (after.values().stream().anyMatch(lag -> lag > 0)
                    && System.nanoTime() - drainStart < TimeUnit.SECONDS.toNanos(120)) {
                TimeUnit.MILLISECONDS.sleep(200); // polling the consumers' lag until they caught up
                after = lags(admin);
            }
            double drain = (System.nanoTime() - drainStart) / 1e9;
            double cpu = (cpuTicks() - cpuBefore) / 100.0;
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            long published = endOffsets(admin, Topics.CACHE_KV_INDEX) - indexBefore;
            long holdings = endOffsets(admin, Topics.CACHE_KV_HOLDINGS) - holdingsBefore;
            System.out.printf("nodes=%d events=%d (%d blocks each) in %.1fs (%.0f events/s, %.0f blocks/s); lag at "
                    + "the end of sending %s, drained in %.1fs; holdings offsets written %d, index offsets written %d "
                    + "(%.0f/s; records plus one commit marker per partition and round); cache-service "
                    + "CPU %.1f s over %.1f s = %.2f cores (all replicas)%n", nodes, sent, BLOCKS_PER_EVENT,
                    sendSeconds, sent / sendSeconds, sent * BLOCKS_PER_EVENT / sendSeconds, atEnd, drain,
                    holdings, published, published / elapsed, cpu, elapsed, cpu / elapsed);
        }
    }

    /** Per owner (the client id names the stage and the replica), how far its partitions' input is from its end. */
    private static Map<String, Long> lags(Admin admin) throws Exception {
        Map<String, Long> lags = new java.util.TreeMap<>();
        Map<String, ConsumerGroupDescription> described = admin.describeConsumerGroups(OWNER_GROUPS).all()
                .get(10, TimeUnit.SECONDS);
        for (String group : OWNER_GROUPS) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            if (committed.isEmpty()) {
                continue; // no round yet
            }
            Map<TopicPartition, OffsetSpec> latest = committed.keySet().stream()
                    .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, String> owners = new java.util.HashMap<>();
            ConsumerGroupDescription description = described.get(group);
            if (description != null) {
                description.members().forEach(member -> member.assignment().topicPartitions()
                        .forEach(tp -> owners.put(tp, member.clientId())));
            }
            committed.forEach((tp, offset) -> lags.merge(owners.getOrDefault(tp, group + " (unassigned)"),
                    ends.get(tp).offset() - (offset == null ? 0 : offset.offset()), Long::sum));
        }
        return lags;
    }

    private static long endOffsets(Admin admin, String topic) throws Exception {
        var partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                .partitions();
        Map<TopicPartition, OffsetSpec> latest = partitions.stream().collect(Collectors.toMap(
                p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).values().stream()
                .mapToLong(info -> info.offset()).sum();
    }

    /** utime + stime (clock ticks) of every cache-service process on this machine. */
    private static long cpuTicks() {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(
                "cache-service.jar")).orElse(false)).mapToLong(p -> {
                    try {
                        String[] fields = Files.readString(Path.of("/proc/" + p.pid() + "/stat")).replaceAll(
                                ".*\\) ", "").split(" ");
                        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    } catch (IOException | RuntimeException e) {
                        return 0;
                    }
                }).sum();
    }
}
