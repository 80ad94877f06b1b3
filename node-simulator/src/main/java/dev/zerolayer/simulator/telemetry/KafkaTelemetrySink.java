package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.platform.events.EventPublisher;

/**
 * Publishes registrations and samples through the {@code nodeTelemetry-out-0} binding ({@code telemetry.samples.v1}),
 * keyed by node id, once the topics are verified; before that, and on failure, nothing is sent and the caller retries.
 */
public class KafkaTelemetrySink implements TelemetrySink {

    static final String BINDING = "nodeTelemetry-out-0";

    private final EventPublisher events;

    public KafkaTelemetrySink(EventPublisher events) {
        this.events = events;
    }

    @Override
    public boolean send(NodeTelemetry event) {
        return events.publish(BINDING, event);
    }
}
