package dev.zerolayer.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** A broker of its own: records written before a stop are read back after a restart on the same port. */
class KraftBrokerIT {

    @Test
    void keepsTopicsAndRecordsAcrossARestartOnTheSamePort() throws Exception {
        // Given a fresh broker with one topic holding two records
        Path dir = Files.createTempDirectory(Path.of("target"), "kraft-restart-");
        try (KraftBroker broker = KraftBroker.create(dir).start()) {
            String servers = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
                admin.createTopics(List.of(new NewTopic("restart.test", 1, (short) 1))).all().get();
            }
            produce(servers, "restart.test", "k1", "v1");
            produce(servers, "restart.test", "k2", "v2");

            // When it stops and starts again
            broker.stop();
            assertThat(broker.running()).isFalse();
            broker.start();

            // Then it listens on the same address and still holds both records
            assertThat(broker.bootstrapServers()).isEqualTo(servers);
            assertThat(readAll(servers, "restart.test", 2)).containsExactly("k1=v1", "k2=v2");
        } finally {
            SharedKafka.deleteRecursively(dir);
        }
    }

    @Test
    void failsFastNamingAPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> KraftBroker.create(Path.of("target/unused"), port, 0, Map.of()))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessage("port " + port + " is already in use");
        }
    }

    static void produce(String servers, String topic, String key, String value) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        }
    }

    static List<String> readAll(String servers, String topic, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        List<String> seen = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(Set.of(partition));
            consumer.seekToBeginning(Set.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(rec.key() + "=" + rec.value());
                }
            }
        }
        return seen;
    }
}
