package dev.zerolayer.platform.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader whose writer was fenced by a replica that still believed it led (a former leader resuming from a pause
 * registers the id before its election tells it the term is over) takes its term back: while the election still says
 * it leads, its writer is opened again and its takeover runs again, and the intruder's writes are refused. Likewise
 * after a commit whose outcome is unknown (the broker went away under it): the transaction is never read.
 */
class TermTakeoverIT {

    @TempDir
    Path dir;

    @Test
    void aLeaderFencedByAFormerLeaderOpensItsWriterAgainWhileItStillLeads() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start()) {
            // Given the only replica of a service, leading its election, its writer open and its takeover run once
            try (OnlyReplica replica = OnlyReplica.start(broker, "term-takeover-it.leader", factory())) {
                TermWriter writer = replica.writer;
                List<Long> takeovers = replica.takeovers;
                await().atMost(Duration.ofSeconds(60)).until(() -> takeovers.size() == 1 && writer.isOpen());
                long term = takeovers.get(0);
                assertThat(writer.write(List.of(record("before")))).isEqualTo(TermWriter.Outcome.COMMITTED);

                // When a former leader, resumed and not yet told its term ended, registers the same id
                TermWriter intruder = writer(broker);
                intruder.open(term - 1);

                // Then this leader's next write is refused by the broker
                assertThat(writer.write(List.of(record("fenced")))).isEqualTo(TermWriter.Outcome.FENCED);
                // and, the election still saying it leads, its writer is opened again and the takeover run again
                await().atMost(Duration.ofSeconds(30)).until(() -> takeovers.size() == 2 && writer.isOpen());
                assertThat(takeovers).containsExactly(term, term);
                assertThat(writer.write(List.of(record("after")))).isEqualTo(TermWriter.Outcome.COMMITTED);
                // while the intruder's writes are refused from then on
                assertThat(intruder.write(List.of(record("intruder")))).isEqualTo(TermWriter.Outcome.FENCED);
                try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
                    assertThat(reader.readAll(Topics.FALLBACK_POLICY)).extracting(r -> new String(r.value(),
                            StandardCharsets.UTF_8)).containsExactly("before", "after");
                }
            }
        }
    }

    @Test
    void aCommitOfUnknownOutcomeIsNeverReadAndTheLeaderWritesAgainOnceTheBrokerIsBack() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start()) {
            // Given the only replica of a service, leading, its writer open and one write committed; its producer is
            // real, and the broker will stop between a transaction's sends (acknowledged) and its commit
            AtomicBoolean stopBeforeCommit = new AtomicBoolean();
            TermWriter.ProducerFactory real = factory();
            try (OnlyReplica replica = OnlyReplica.start(broker, "term-takeover-it-unknown.leader",
                    config -> stoppingBeforeCommit(real.create(config), stopBeforeCommit, broker))) {
                TermWriter writer = replica.writer;
                List<Long> takeovers = replica.takeovers;
                await().atMost(Duration.ofSeconds(60)).until(() -> takeovers.size() == 1 && writer.isOpen());
                assertThat(writer.write(List.of(record("before")))).isEqualTo(TermWriter.Outcome.COMMITTED);

                // When the broker stops after the next transaction's record reached it, before its commit
                stopBeforeCommit.set(true);
                TermWriter.Outcome outcome = writer.write(List.of(record("sent, commit unanswered")));

                // Then the write's outcome is unknown and the writer is given up: nothing more goes out under it
                assertThat(outcome).isEqualTo(TermWriter.Outcome.UNKNOWN);
                assertThat(broker.running()).isFalse();
                assertThat(writer.write(List.of(record("while away")))).isEqualTo(TermWriter.Outcome.NO_TERM);
                // and once the broker is back, the writer is opened again and the takeover run again (it reads the
                // topics before anything more is written) while the election still says this replica leads
                broker.start();
                await().atMost(Duration.ofSeconds(90)).until(() -> takeovers.size() >= 2 && writer.isOpen());
                assertThat(takeovers.get(takeovers.size() - 1)).isGreaterThanOrEqualTo(takeovers.get(0));
                assertThat(writer.write(List.of(record("after")))).isEqualTo(TermWriter.Outcome.COMMITTED);
                // and readers never see the transaction whose commit went unanswered: opening the writer again
                // aborted it
                try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers())) {
                    assertThat(reader.readAll(Topics.FALLBACK_POLICY)).extracting(r -> new String(r.value(),
                            StandardCharsets.UTF_8)).containsExactly("before", "after");
                }
            }
        }
    }

    /**
     * The producer itself, except that once {@code armed}, its next commit first waits until the transaction's records
     * are acknowledged and then stops the broker.
     */
    @SuppressWarnings("unchecked")
    private static Producer<byte[], byte[]> stoppingBeforeCommit(Producer<byte[], byte[]> producer,
            AtomicBoolean armed, KraftBroker broker) {
        return (Producer<byte[], byte[]>) java.lang.reflect.Proxy.newProxyInstance(
                TermTakeoverIT.class.getClassLoader(), new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("commitTransaction") && armed.compareAndSet(true, false)) {
                        producer.flush();
                        broker.stop();
                    }
                    try {
                        return method.invoke(producer, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static TermWriter writer(KraftBroker broker) {
        return writer(broker, "term-takeover-it.leader", factory());
    }

    private static TermWriter writer(KraftBroker broker, String transactionalId, TermWriter.ProducerFactory factory) {
        return new TermWriter(transactionalId, broker.bootstrapServers(), Map.of(), Duration.ofSeconds(10), factory,
                new SimpleMeterRegistry());
    }

    private static TermWriter.ProducerFactory factory() {
        return config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The only replica of a service: its election, its writer, and a takeover that notes each term it ran for. */
    private record OnlyReplica(TopicGuard guard, Leadership leadership, TermWriter writer, List<Long> takeovers,
            TermTakeover takeover) implements AutoCloseable {

        static OnlyReplica start(KraftBroker broker, String transactionalId, TermWriter.ProducerFactory factory) {
            ZeroLayerProperties properties = new ZeroLayerProperties("fallback-service", true, (short) 1,
                    Duration.ofSeconds(1), "", "", null, "replica-a", Duration.ofSeconds(6), "",
                    Duration.ofSeconds(30));
            TopicGuard guard = new TopicGuard(properties, broker.bootstrapServers(), () -> { });
            Leadership leadership = new Leadership(transactionalId, Topics.FALLBACK_POLICY, "replica-a",
                    Optional::empty, guard, Duration.ofSeconds(6), Clock.systemUTC());
            TermWriter writer = TermTakeoverIT.writer(broker, transactionalId, factory);
            List<Long> takeovers = new CopyOnWriteArrayList<>();
            TermTakeover takeover = new TermTakeover("it-takeover", guard, Duration.ofSeconds(1), leadership, writer) {
                @Override
                protected void takeOver(long generation) {
                    takeovers.add(generation);
                }

                @Override
                protected void termEnded() {
                }
            };
            guard.start();
            takeover.start();
            leadership.start();
            return new OnlyReplica(guard, leadership, writer, takeovers, takeover);
        }

        @Override
        public void close() {
            takeover.stop();
            leadership.stop();
            guard.stop();
            writer.close();
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String value) {
        return new ProducerRecord<>(Topics.FALLBACK_POLICY, "active".getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }
}
