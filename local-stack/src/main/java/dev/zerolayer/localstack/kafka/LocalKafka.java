package dev.zerolayer.localstack.kafka;

import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.topics.KafkaClientSecurity;
import dev.zerolayer.platform.topics.ProvisionTopics;
import dev.zerolayer.platform.topics.TopicProvisioner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/** The stack's broker runs inside the launcher's JVM, and every topic exists before any service starts. */
public final class LocalKafka {

    private final KraftBroker broker;

    private LocalKafka(KraftBroker broker) {
        this.broker = broker;
    }

    /** Starts (formatting only on first use) a KRaft broker on {@code port}, controller on {@code port + 1}. */
    public static LocalKafka start(Path dataDir, int port) {
        return new LocalKafka(KraftBroker.create(dataDir, port, port + 1, Map.of()).start());
    }

    /** Creates every catalogue and dead-letter topic that is missing; returns the names created. */
    public List<String> provisionTopics() {
        // the broker's own client settings through the shared builder, as every other admin client
        try (Admin admin = Admin.create(KafkaClientSecurity.adminConfig(bootstrapServers(), broker.clientProperties(),
                30_000, 30_000))) {
            return new TopicProvisioner(admin, (short) 1).ensure(ProvisionTopics.allWithDeadLetters());
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Stops the broker, giving up (leaving the JVM's exit to end it) after {@code timeout}; true when it stopped. */
    public boolean stop(Duration timeout) {
        Thread stopper = new Thread(broker::stop, "local-kafka-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(TimeUnit.NANOSECONDS.toMillis(timeout.toNanos()) + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !stopper.isAlive();
    }
}
