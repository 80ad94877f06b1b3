package dev.zerolayer.platform.topics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.TermWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader done with a topic written in transactions counts as at its end although its group's committed offset
 * stops before the trailing commit marker, or before an aborted transaction; a record it has not read still counts.
 */
class StartupCatchUpIT {

    private static final String TOPIC = "catch-up-markers";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    @TempDir
    Path dir;

    @Test
    void onlyMarkersAndAbortedRecordsBetweenTheCommittedOffsetAndTheEndCountAsRead() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start();
             StartupCatchUp catchUp = new StartupCatchUp(broker.bootstrapServers(), Map.of())) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            TermWriter writer = new TermWriter("catch-up-it.leader", broker.bootstrapServers(), Map.of(),
                    Duration.ofSeconds(10), config -> new KafkaProducer<>(config, new ByteArraySerializer(),
                            new ByteArraySerializer()), new SimpleMeterRegistry());
            writer.open(1);

            // Given one record written in a transaction (offset 0, its commit marker at 1), and a group that read it
            assertThat(writer.write(List.of(record("v1")))).isEqualTo(TermWriter.Outcome.COMMITTED);
            commit(broker, "reader", 1);
            StartOffsets start = catchUp.startOffsets(List.of(TOPIC), problem -> { });
            assertThat(start.end()).containsEntry(PARTITION, 2L);
            assertThat(catchUp.committed("reader")).containsEntry(PARTITION, 1L);

            // Then the group counts as at the end: only the marker lies between
            assertThat(start.reachedBy(catchUp.committedPastMarkers("reader", start)::get)).isTrue();

            // Given a second record (offset 2, marker at 3) the group has not read
            assertThat(writer.write(List.of(record("v2")))).isEqualTo(TermWriter.Outcome.COMMITTED);
            StartOffsets later = catchUp.startOffsets(List.of(TOPIC), problem -> { });
            // Then it does not count as at the end
            assertThat(catchUp.committedPastMarkers("reader", later)).containsEntry(PARTITION, 1L);
            assertThat(later.reachedBy(catchUp.committedPastMarkers("reader", later)::get)).isFalse();

            // Given the group read it, and then a transaction was aborted (record 4, abort marker 5)
            commit(broker, "reader", 3);
            writer.close();
            try (Producer<byte[], byte[]> aborting = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.bootstrapServers(), "transactional.id", "catch-up-it.aborting"),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                aborting.initTransactions();
                aborting.beginTransaction();
                aborting.send(record("never read")).get();
                aborting.abortTransaction();
            }
            StartOffsets afterAbort = catchUp.startOffsets(List.of(TOPIC), problem -> { });
            assertThat(afterAbort.end()).containsEntry(PARTITION, 6L);
            // Then the group counts as at the end: the aborted record is nothing a read_committed reader gets (asked
            // twice: the probe is reused, and its second round starts from where the first one left it)
            assertThat(catchUp.committedPastMarkers("reader", afterAbort)).containsEntry(PARTITION, 6L);
            assertThat(catchUp.committedPastMarkers("reader", afterAbort)).containsEntry(PARTITION, 6L);
            // and a group that committed nothing has not read the records there are
            assertThat(catchUp.committedPastMarkers("nobody", afterAbort)).doesNotContainKey(PARTITION);

            // Given another topic holding only an aborted transaction (a fenced leader's first write, say)
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC + "-aborted", 1, (short) 1))).all().get();
            }
            TopicPartition onlyAborted = new TopicPartition(TOPIC + "-aborted", 0);
            try (Producer<byte[], byte[]> aborting = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.bootstrapServers(), "transactional.id", "catch-up-it.aborting-2"),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                aborting.initTransactions();
                aborting.beginTransaction();
                aborting.send(new ProducerRecord<>(onlyAborted.topic(), "k".getBytes(StandardCharsets.UTF_8),
                        "never read".getBytes(StandardCharsets.UTF_8))).get();
                aborting.abortTransaction();
            }
            StartOffsets aborted = catchUp.startOffsets(List.of(onlyAborted.topic()), problem -> { });
            // Then a group that could never commit anything there counts as at the end
            assertThat(aborted.reachedBy(catchUp.committedPastMarkers("nobody", aborted)::get)).isTrue();
        }
    }

    private static void commit(KraftBroker broker, String group, long next) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers",
                broker.bootstrapServers(), "group.id", group, "enable.auto.commit", "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.commitSync(Map.of(PARTITION, new OffsetAndMetadata(next)));
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String value) {
        return new ProducerRecord<>(TOPIC, "k".getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }
}
