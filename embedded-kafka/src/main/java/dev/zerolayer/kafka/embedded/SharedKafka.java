package dev.zerolayer.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: one real Kafka broker per test JVM, shared by every test class that uses it, started on first use
 * and stopped when the whole test plan ends. Its address is published as the system property
 * {@value #BOOTSTRAP_PROPERTY} (which services read before the environment variable of the same name).
 *
 * <p>In-process KRaft broker by default; {@code -Dzerolayer.test.kafka=testcontainers} uses Testcontainers Kafka when a
 * Docker engine is reachable, and falls back to the in-process broker when it is not. Spring test contexts that use the
 * broker must close before it does: annotate them with {@code @DirtiesContext}.
 */
public final class SharedKafka implements BeforeAllCallback {

    public static final String BOOTSTRAP_PROPERTY = "KAFKA_BOOTSTRAP_SERVERS";
    private static final Object LOCK = new Object();
    private static volatile TestKafka instance;

    @Override
    public void beforeAll(ExtensionContext context) {
        TestKafka kafka = broker();
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(SharedKafka.class.getName(), key -> (AutoCloseable) SharedKafka::shutdown);
        System.setProperty(BOOTSTRAP_PROPERTY, kafka.bootstrapServers());
    }

    /** The shared broker, started on first call. */
    public static TestKafka broker() {
        TestKafka current = instance;
        if (current != null) {
            return current;
        }
        synchronized (LOCK) {
            if (instance == null) {
                instance = startBroker();
                System.setProperty(BOOTSTRAP_PROPERTY, instance.bootstrapServers());
            }
            return instance;
        }
    }

    private static void shutdown() {
        synchronized (LOCK) {
            if (instance != null) {
                instance.close();
                instance = null;
            }
        }
    }

    private static TestKafka startBroker() {
        if ("testcontainers".equals(System.getProperty("zerolayer.test.kafka")) && ContainerKafka.dockerAvailable()) {
            return ContainerKafka.launch();
        }
        return InProcessKafka.launch();
    }

    /** The in-process broker, data in a fresh folder under {@code target/} deleted on close. */
    static final class InProcessKafka implements TestKafka {

        private final KraftBroker broker;

        private InProcessKafka(KraftBroker broker) {
            this.broker = broker;
        }

        static InProcessKafka launch() {
            try {
                Path base = Path.of("target");
                Files.createDirectories(base);
                Path dir = Files.createTempDirectory(base, "kafka-");
                return new InProcessKafka(KraftBroker.create(dir, 0, 0, Map.of()).start());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String bootstrapServers() {
            return broker.bootstrapServers();
        }

        @Override
        public void stop() {
            broker.stop();
        }

        @Override
        public void start() {
            broker.start();
        }

        @Override
        public void close() {
            broker.close();
            deleteRecursively(broker.dataDir());
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
