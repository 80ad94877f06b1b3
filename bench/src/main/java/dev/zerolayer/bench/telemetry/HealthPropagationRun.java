package dev.zerolayer.bench.telemetry;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Health propagation against a running stack: synthetic nodes send real-time samples every 100 ms; each trial raises
 * one node's SM activity above 95 % and measures, from the moment the sample that completes 500 ms above the mark is
 * handed to the producer, until a reader of {@code telemetry.node-health.v1} (read the way every router replica
 * reads it: all partitions, no group) sees the node UNAVAILABLE.
 *
 * <p>One unrecorded warm-up round comes first (as a router replica's, the reader's JSON decoding is warm: the first
 * decode of a type builds Jackson's deserializer, some 100 ms, which would otherwise be charged to the first trial).
 *
 * <p>Usage: {@code HealthPropagationRun <bootstrap-servers> [trials] [parallel-nodes]}, with {@code ./zerolayer up}
 * running.
 */
public final class HealthPropagationRun {

    private static final long TICK_MS = 100;
    private static final int WARMUP_ROUNDS = 1;
    private static volatile boolean recording;
    /** From the health record's creation in telemetry-service to its arrival at the reader. */
    private static final Histogram DELIVERY = new Histogram(3_600_000_000L, 3);

    private HealthPropagationRun() {
    }

    public static void main(String[] args) throws Exception {
        String servers = args.length > 0 ? args[0] : "127.0.0.1:19092";
        int trials = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int parallel = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Map<String, Long> crossedAtNanos = new ConcurrentHashMap<>();
        Histogram propagationMicros = new Histogram(3_600_000_000L, 3);
        Map<String, CountDownLatch> seen = new ConcurrentHashMap<>();

        try (KafkaProducer<byte[], byte[]> producer = producer(servers)) {
            Thread reader = startReader(servers, crossedAtNanos, seen, propagationMicros);
            String run = UUID.randomUUID().toString().substring(0, 8);
            List<String> nodes = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                String node = "prop-" + run + "-" + i;
                nodes.add(node);
                send(producer, NodeRegistration.of(node, "sonnet", "prop-" + run, null, "http://127.0.0.1:9",
                        UpstreamProtocol.ANTHROPIC, "bench", 8, "synthetic"));
            }
            int rounds = (trials + parallel - 1) / parallel + WARMUP_ROUNDS;
            for (int round = 0; round < rounds; round++) {
                recording = round >= WARMUP_ROUNDS;
                // healthy for 1 s so every node is HEALTHY again, then 600 ms above 95 %
                for (int tick = 0; tick < 10; tick++) {
                    long start = System.nanoTime();
                    for (String node : nodes) {
                        send(producer, sample(node, 0.40));
                    }
                    pace(start);
                }
                nodes.forEach(node -> seen.put(node, new CountDownLatch(1)));
                // six samples stamped exactly 100 ms apart and sent at those moments: the sixth completes 500 ms
                Instant firstHigh = Instant.now();
                long firstHighNanos = System.nanoTime();
                for (int tick = 0; tick <= 5; tick++) {
                    long due = firstHighNanos + TimeUnit.MILLISECONDS.toNanos(tick * TICK_MS);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    Instant stamp = firstHigh.plusMillis(tick * TICK_MS);
                    for (String node : nodes) {
                        if (tick == 5) {
                            // the clock starts when the crossing sample is handed to the producer
                            crossedAtNanos.put(node, System.nanoTime());
                        }
                        producer.send(record(sample(node, 0.99, stamp)));
                    }
                }
                for (String node : nodes) {
                    if (!seen.get(node).await(10, TimeUnit.SECONDS)) {
                        System.err.println("no UNAVAILABLE record for " + node + " within 10 s");
                    }
                    crossedAtNanos.remove(node);
                }
            }
            reader.interrupt();
        }
        System.out.printf("trials=%d p50=%.1fms p90=%.1fms p99=%.1fms max=%.1fms%n", propagationMicros.getTotalCount(),
                propagationMicros.getValueAtPercentile(50) / 1000.0, propagationMicros.getValueAtPercentile(90) / 1000.0,
                propagationMicros.getValueAtPercentile(99) / 1000.0, propagationMicros.getMaxValue() / 1000.0);
        System.out.printf("of which record created -> read: p50=%.1fms p90=%.1fms p99=%.1fms%n",
                DELIVERY.getValueAtPercentile(50) / 1000.0, DELIVERY.getValueAtPercentile(90) / 1000.0,
                DELIVERY.getValueAtPercentile(99) / 1000.0);
    }

    private static void pace(long startNanos) throws InterruptedException {
        long left = TICK_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        if (left > 0) {
            Thread.sleep(left);
        }
    }

    private static TelemetrySample sample(String node, double sm) {
        return sample(node, sm, Instant.now());
    }

    private static TelemetrySample sample(String node, double sm, Instant at) {
        return new TelemetrySample(UUID.randomUUID().toString(), at, TelemetrySample.SCHEMA_VERSION, node, sm, 1e9,
                1e9, 0.1, 20_000, 20_000, 0.05, 2, 0, 0.2, false, 0);
    }

    private static Thread startReader(String servers, Map<String, Long> crossedAtNanos,
            Map<String, CountDownLatch> seen, Histogram histogram) {
        Thread thread = new Thread(() -> {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
            props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
            try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(Topics.TELEMETRY_NODE_HEALTH).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                while (!Thread.currentThread().isInterrupted()) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                        long now = System.nanoTime();
                        String node = new String(record.key(), StandardCharsets.UTF_8);
                        Long crossed = crossedAtNanos.get(node);
                        CountDownLatch latch = seen.get(node);
                        if (crossed == null || latch == null || latch.getCount() == 0) {
                            continue;
                        }
                        NodeHealth health = EventCodec.decode(record.value(), NodeHealth.class);
                        if (health.state() == NodeState.UNAVAILABLE && !recording) {
                            latch.countDown();
                        } else if (health.state() == NodeState.UNAVAILABLE) {
                            histogram.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - crossed)));
                            long wallNowMicros = java.time.temporal.ChronoUnit.MICROS.between(Instant.EPOCH,
                                    Instant.now());
                            long decidedMicros = java.time.temporal.ChronoUnit.MICROS.between(Instant.EPOCH,
                                    health.occurredAt());
                            DELIVERY.recordValue(Math.max(0, wallNowMicros - decidedMicros));
                            latch.countDown();
                        }
                    }
                }
            } catch (org.apache.kafka.common.errors.InterruptException e) {
                Thread.currentThread().interrupt();
            }
        }, "node-health-reader");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static KafkaProducer<byte[], byte[]> producer(String servers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static ProducerRecord<byte[], byte[]> record(dev.zerolayer.contracts.event.Event event) {
        return new ProducerRecord<>(Topics.TELEMETRY_SAMPLES, event.key().getBytes(StandardCharsets.UTF_8),
                EventCodec.encode(event));
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, dev.zerolayer.contracts.event.Event event) {
        producer.send(record(event));
    }

}
