package dev.zerolayer.platform.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.testing.KafkaTestClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer broken by an error the producer cannot recover from, against a real broker that authorizes by ACL: when the
 * service's {@code TransactionalId} grant is revoked mid-term (an operator's ACL change), the next write is refused by
 * the broker with a fatal authorization error; the writer is given up (its term reported lost, later writes get
 * {@code NO_TERM}), nothing of the refused write is read, and once the grant is back a new term writes again.
 */
class TermWriterAuthorizationIT {

    private static final String WRITER = "svc-writer";
    private static final String TRANSACTIONAL_ID = "svc-acl.leader";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aRevokedTransactionalIdGrantGivesTheWriterUpAndNothingOfTheRefusedWriteIsRead(@TempDir Path dir)
            throws Exception {
        String password = "writer-secret";
        try (KraftBroker broker = KraftBroker.createSaslPlainWithAcls(dir, "admin", "admin-secret",
                Map.of(WRITER, password)).start();
             Admin admin = Admin.create(adminConfig(broker))) {
            // Given a topic, the writer's grants on it and on its transactional id, and a term that committed a write
            String topic = "acl-writes";
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            List<AclBinding> grants = List.of(
                    grant(ResourceType.TOPIC, topic, AclOperation.WRITE),
                    grant(ResourceType.TOPIC, topic, AclOperation.DESCRIBE),
                    grant(ResourceType.TRANSACTIONAL_ID, TRANSACTIONAL_ID, AclOperation.WRITE),
                    grant(ResourceType.TRANSACTIONAL_ID, TRANSACTIONAL_ID, AclOperation.DESCRIBE));
            admin.createAcls(grants).all().get();
            TermWriter writer = new TermWriter(TRANSACTIONAL_ID, broker.bootstrapServers(),
                    KraftBroker.saslPlainClient(WRITER, password), Duration.ofSeconds(10),
                    config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
                    new SimpleMeterRegistry());
            List<Long> lost = new CopyOnWriteArrayList<>();
            writer.onLost(lost::add);
            writer.open(1);
            assertThat(writer.write(List.of(record(topic, "v1")))).isEqualTo(TermWriter.Outcome.COMMITTED);

            // When the grant on the transactional id is revoked while the term goes on
            admin.deleteAcls(List.of(new AclBindingFilter(
                    new ResourcePatternFilter(ResourceType.TRANSACTIONAL_ID, TRANSACTIONAL_ID, PatternType.LITERAL),
                    AccessControlEntryFilter.ANY))).all().get();
            // (the broker applies ACL changes from its metadata log: writes before it does still commit)
            List<String> committed = new ArrayList<>(List.of("v1"));
            List<TermWriter.Outcome> refused = new ArrayList<>();
            int[] n = {2};
            await().atMost(WAIT).pollInSameThread().until(() -> {
                String value = "v" + n[0]++;
                TermWriter.Outcome outcome = writer.write(List.of(record(topic, value)));
                if (outcome == TermWriter.Outcome.COMMITTED) {
                    committed.add(value);
                    return false;
                }
                refused.add(outcome);
                return true;
            });

            // Then the refused write aborted, the writer is given up and the term reported lost, once
            assertThat(refused).containsExactly(TermWriter.Outcome.ABORTED);
            assertThat(writer.isOpen()).isFalse();
            assertThat(lost).containsExactly(1L);
            assertThat(writer.write(List.of(record(topic, "after")))).isEqualTo(TermWriter.Outcome.NO_TERM);

            // When the grant is back and the next term opens
            admin.createAcls(grants).all().get();
            await().atMost(WAIT).ignoreExceptions().until(() -> {
                writer.open(2);
                return writer.isOpen();
            });
            assertThat(writer.write(List.of(record(topic, "v-term-2")))).isEqualTo(TermWriter.Outcome.COMMITTED);
            committed.add("v-term-2");

            // Then readers see exactly the committed writes: nothing of the refused one
            try (KafkaTestClient reader = new KafkaTestClient(broker.bootstrapServers(), broker.clientProperties())) {
                assertThat(values(reader.readAll(topic))).containsExactlyElementsOf(committed);
            }
            writer.close();
        }
    }

    private static Map<String, Object> adminConfig(KraftBroker broker) {
        Map<String, Object> config = new java.util.HashMap<>(broker.clientProperties());
        config.put("bootstrap.servers", broker.bootstrapServers());
        return config;
    }

    private static AclBinding grant(ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry("User:" + WRITER, "*", operation, AclPermissionType.ALLOW));
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, "policy".getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
