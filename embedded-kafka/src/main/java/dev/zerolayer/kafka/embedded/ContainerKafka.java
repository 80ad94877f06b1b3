package dev.zerolayer.kafka.embedded;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/** Testcontainers Kafka (official {@code apache/kafka} image, KRaft) for machines with a Docker engine. */
final class ContainerKafka implements TestKafka {

    static final String IMAGE = "apache/kafka:4.1.2";

    private final KafkaContainer container;

    private ContainerKafka(KafkaContainer container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static ContainerKafka launch() {
        KafkaContainer kafka = new KafkaContainer(IMAGE);
        kafka.start();
        return new ContainerKafka(kafka);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("restarting a container broker keeps no fixed port; use the in-process broker");
    }

    @Override
    public void start() {
        throw new UnsupportedOperationException("restarting a container broker keeps no fixed port; use the in-process broker");
    }

    @Override
    public void close() {
        container.stop();
    }
}
