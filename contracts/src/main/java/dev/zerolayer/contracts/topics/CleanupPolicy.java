package dev.zerolayer.contracts.topics;

/** Kafka's {@code cleanup.policy}: {@code compact} topics carry state (latest value per key), {@code delete} topics carry a stream. */
public enum CleanupPolicy {
    COMPACT("compact"),
    DELETE("delete");

    private final String kafkaValue;

    CleanupPolicy(String kafkaValue) {
        this.kafkaValue = kafkaValue;
    }

    public String kafkaValue() {
        return kafkaValue;
    }
}
