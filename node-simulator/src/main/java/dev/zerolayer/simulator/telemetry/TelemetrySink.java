package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.contracts.telemetry.NodeTelemetry;

/** Where registrations and samples go; says whether the event was handed over (false: try again later). */
@FunctionalInterface
public interface TelemetrySink {

    boolean send(NodeTelemetry event);
}
