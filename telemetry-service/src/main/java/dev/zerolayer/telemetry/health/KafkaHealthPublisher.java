package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.events.EventPublisher;

/**
 * Publishes health records through the {@code nodeHealth-out-0} binding, keyed by node id, once the topics are verified;
 * a record that could not be sent goes out again with the next heartbeat.
 */
public class KafkaHealthPublisher implements HealthPublisher {

    static final String BINDING = "nodeHealth-out-0";

    private final EventPublisher events;

    public KafkaHealthPublisher(EventPublisher events) {
        this.events = events;
    }

    @Override
    public boolean publish(NodeHealth health) {
        return events.publish(BINDING, health);
    }
}
