package dev.zerolayer.bench.failover;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads {@code router.decisions.v1} from its end (every partition, no consumer group) on its own thread and keeps
 * the dispatched decisions (explain calls left out) for the failover analysis.
 */
public final class DecisionTap implements AutoCloseable {

    private final List<RoutingDecision> decisions = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean assigned = new AtomicBoolean();
    private final Thread thread;
    private volatile long undecodable;

    public DecisionTap(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-failover-tap");
        thread = new Thread(() -> {
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
                List<TopicPartition> partitions = new ArrayList<>();
                consumer.partitionsFor(Topics.ROUTER_DECISIONS, Duration.ofSeconds(30))
                        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                partitions.forEach(consumer::position);
                assigned.set(true);
                while (running.get()) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        try {
                            RoutingDecision d = EventCodec.decode(record.value(), RoutingDecision.class);
                            if (d.status() != DecisionStatus.EXPLAINED) {
                                decisions.add(d);
                            }
                        } catch (RuntimeException e) {
                            undecodable++;
                        }
                    }
                }
            }
        }, "decision-tap");
        thread.setDaemon(true);
        thread.start();
    }

    /** True once the tap sits at the end of every partition. */
    public boolean ready() {
        return assigned.get();
    }

    public List<RoutingDecision> decisions() {
        return List.copyOf(decisions);
    }

    public long undecodable() {
        return undecodable;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(5_000);
    }
}
