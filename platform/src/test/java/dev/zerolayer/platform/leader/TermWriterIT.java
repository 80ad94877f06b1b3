package dev.zerolayer.platform.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' writers under one transactional id, against a real broker: the later term fences the earlier one, and
 * nothing the fenced replica wrote (nor left half-written) is read by a {@code read_committed} reader.
 */
class TermWriterIT {

    private static KraftBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KraftBroker.create(Files.createTempDirectory("term-writer-it")).start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aLaterTermFencesTheWriterOfAnEarlierOneOnAnotherReplica() throws Exception {
        // Given a one-partition topic and the service's writer on replica A, under term 1
        String topic = createTopic("fenced-writes");
        TermWriter replicaA = writer("svc-a.leader", null);
        TermWriter replicaB = writer("svc-a.leader", null);
        List<Long> lostByA = new java.util.concurrent.CopyOnWriteArrayList<>();
        replicaA.onLost(lostByA::add);
        replicaA.open(1);
        assertThat(replicaA.write(List.of(record(topic, "policy", "v1 by A")))).isEqualTo(TermWriter.Outcome.COMMITTED);

        // When replica B takes term 2 (A is paused past its session and still believes it leads)
        replicaB.open(2);

        // Then A's next write is refused by the broker, and A's writer is closed for good
        assertThat(replicaA.write(List.of(record(topic, "policy", "v2 by A, too late"))))
                .isEqualTo(TermWriter.Outcome.FENCED);
        assertThat(replicaA.isOpen()).isFalse();
        assertThat(lostByA).as("told which term's writer was lost").containsExactly(1L);
        assertThat(replicaA.write(List.of(record(topic, "policy", "v3 by A")))).isEqualTo(TermWriter.Outcome.NO_TERM);
        assertThat(lostByA).as("a write without a term loses nothing").containsExactly(1L);
        // while B writes, and readers see A's write before the takeover and B's after it, nothing else
        assertThat(replicaB.write(List.of(record(topic, "policy", "v2 by B")))).isEqualTo(TermWriter.Outcome.COMMITTED);
        try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            assertThat(values(reader.readAll(topic))).containsExactly("v1 by A", "v2 by B");
        }
        replicaB.close();
    }

    @Test
    void aTransactionLeftOpenByAPausedLeaderIsAbortedByTheNextTerm() throws Exception {
        // Given replica A's writer under term 1, whose producer sent a record and then paused before committing
        String topic = createTopic("half-written");
        AtomicReference<Producer<byte[], byte[]>> producerOfA = new AtomicReference<>();
        TermWriter replicaA = writer("svc-b.leader", producerOfA);
        replicaA.open(1);
        producerOfA.get().beginTransaction();
        producerOfA.get().send(record(topic, "model", "half-written by A")).get();

        // When replica B opens term 2 and writes
        TermWriter replicaB = writer("svc-b.leader", null);
        replicaB.open(2);
        assertThat(replicaB.write(List.of(record(topic, "model", "by B")))).isEqualTo(TermWriter.Outcome.COMMITTED);

        // Then A's transaction can no longer be committed
        assertThatThrownBy(() -> producerOfA.get().commitTransaction()).isInstanceOf(KafkaException.class);
        // and readers see only B's record: A's was aborted, and it held nobody up
        try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            assertThat(values(reader.readAll(topic))).containsExactly("by B");
        }
        replicaA.close();
        replicaB.close();
    }

    @Test
    void writesOfAClosedTermAreRefusedWithoutReachingTheBroker() throws Exception {
        // Given a writer whose term ended on this replica
        String topic = createTopic("closed-term");
        TermWriter writer = writer("svc-c.leader", null);
        List<Long> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
        writer.onLost(lost::add);
        writer.open(7);
        writer.close(7);
        // When a write still arrives, then nothing goes out
        assertThat(writer.write(List.of(record(topic, "alert", "late")))).isEqualTo(TermWriter.Outcome.NO_TERM);
        // and a close for another term leaves an open one alone
        writer.open(8);
        writer.close(7);
        assertThat(writer.write(List.of(record(topic, "alert", "term 8")))).isEqualTo(TermWriter.Outcome.COMMITTED);
        try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            assertThat(values(reader.readAll(topic))).containsExactly("term 8");
        }
        writer.close();
        assertThat(lost).as("a term closed on purpose is not lost").isEmpty();
    }

    @Test
    void aRecordTheProducerRefusesAbortsItsWholeTransactionAndTheTermWritesOn() throws Exception {
        // Given a writer under term 1 that committed one write
        String topic = createTopic("refused-record");
        TermWriter writer = writer("svc-d.leader", null);
        List<Long> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
        writer.onLost(lost::add);
        writer.open(1);
        assertThat(writer.write(List.of(record(topic, "policy", "v1")))).isEqualTo(TermWriter.Outcome.COMMITTED);

        // When a write holds a record above the producer's request limit (1 MB) beside a valid one
        String tooLarge = "x".repeat(2 * 1024 * 1024);
        TermWriter.Outcome outcome = writer.write(List.of(record(topic, "policy", "v2, sent beside the refused one"),
                record(topic, "policy", tooLarge)));

        // Then the whole transaction is aborted, and the writer stays open for the term: it was not lost
        assertThat(outcome).isEqualTo(TermWriter.Outcome.ABORTED);
        assertThat(writer.isOpen()).isTrue();
        assertThat(lost).isEmpty();
        assertThat(writer.write(List.of(record(topic, "policy", "v3")))).isEqualTo(TermWriter.Outcome.COMMITTED);
        // and readers see neither record of the aborted write
        try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
            assertThat(values(reader.readAll(topic))).containsExactly("v1", "v3");
        }
        writer.close();
    }

    private static TermWriter writer(String transactionalId, AtomicReference<Producer<byte[], byte[]>> created) {
        return new TermWriter(transactionalId, broker.bootstrapServers(), Map.of(), Duration.ofSeconds(10), config -> {
            Producer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                    new ByteArraySerializer());
            if (created != null) {
                created.set(producer);
            }
            return producer;
        }, new SimpleMeterRegistry());
    }

    private static String createTopic(String name) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
        return name;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, String value) {
        return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
