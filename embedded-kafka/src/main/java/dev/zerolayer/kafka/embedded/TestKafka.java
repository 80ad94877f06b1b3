package dev.zerolayer.kafka.embedded;

/** The broker a test JVM talks to: an in-process KRaft broker, or a Testcontainers Kafka where Docker exists. */
public interface TestKafka extends AutoCloseable {

    String bootstrapServers();

    /** Stops the broker, keeping its data; only the in-process broker can do this. */
    void stop();

    /** Starts a stopped broker on the same port with the same data. */
    void start();

    @Override
    void close();
}
