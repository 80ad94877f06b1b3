package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.telemetry.NodeHealth;

/** Where health records go: {@code telemetry.node-health.v1}, keyed by node id. */
public interface HealthPublisher {

    /** Publishes a record; returns false when it could not be handed to the broker (it is republished next heartbeat). */
    boolean publish(NodeHealth health);
}
