package dev.zerolayer.bench.telemetry;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Telemetry ingestion load against a running stack: registers N synthetic nodes, publishes samples from all of them at
 * a fixed rate per node for a duration, then waits until telemetry-service's consumer group has no lag; prints what was
 * sent, the send rate and the lag over time (a growing lag means the service does not keep up).
 *
 * <p>Usage: {@code SampleIngestRun <bootstrap-servers> [nodes=1000] [samples-per-node-per-second=10] [seconds=60]}.
 */
public final class SampleIngestRun {

    private SampleIngestRun() {
    }

    public static void main(String[] args) throws Exception {
        String servers = args.length > 0 ? args[0] : "127.0.0.1:19092";
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int perSecond = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        String run = UUID.randomUUID().toString().substring(0, 8);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer()); Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
            for (int i = 0; i < nodes; i++) {
                send(producer, NodeRegistration.of(node(run, i), "haiku", "ingest-" + run + "-" + (i % 50), null,
                        "http://127.0.0.1:9", UpstreamProtocol.OPENAI, "bench", 16, "synthetic"));
            }
            producer.flush();
            long sent = 0;
            long startNanos = System.nanoTime();
            long tickNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
            for (long tick = 0; tick < (long) seconds * perSecond; tick++) {
                for (int i = 0; i < nodes; i++) {
                    double sm = 0.3 + 0.4 * ((i * 31 + tick) % 10) / 10.0;
                    send(producer, TelemetrySample.now(node(run, i), sm, 1e9, 1e9, 0.1, 20_000, 20_000, 0.05,
                            (int) (tick % 8), 0, 0.3, false, 0));
                    sent++;
                }
                long wait = startNanos + (tick + 1) * tickNanos - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (tick % perSecond == perSecond - 1) {
                    System.out.printf("t=%ds sent=%d lag=%d%n", (tick + 1) / perSecond, sent, lag(admin));
                }
            }
            producer.flush();
            double sendSeconds = (System.nanoTime() - startNanos) / 1e9;
            long drainStart = System.nanoTime();
            long lag;
            while ((lag = lag(admin)) > 0 && System.nanoTime() - drainStart < TimeUnit.SECONDS.toNanos(120)) {
                TimeUnit.MILLISECONDS.sleep(200);
            }
            double drain = (System.nanoTime() - drainStart) / 1e9;
            System.out.printf("nodes=%d sent=%d in %.1fs (%.0f samples/s); lag after send=%d, drained in %.1fs%n",
                    nodes, sent, sendSeconds, sent / sendSeconds, lag, drain);
        }
    }

    private static String node(String run, int i) {
        return "ingest-" + run + "-" + i;
    }

    private static long lag(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(Topics.TELEMETRY)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = committed.keySet().stream()
                .filter(tp -> tp.topic().equals(Topics.TELEMETRY_SAMPLES))
                .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        var ends = admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
        return latest.keySet().stream().mapToLong(tp -> ends.get(tp).offset() - committed.get(tp).offset()).sum();
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, Event event) {
        producer.send(new ProducerRecord<>(Topics.TELEMETRY_SAMPLES, event.key().getBytes(StandardCharsets.UTF_8),
                EventCodec.encode(event)));
    }
}
