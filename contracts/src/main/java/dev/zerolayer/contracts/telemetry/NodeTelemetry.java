package dev.zerolayer.contracts.telemetry;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.zerolayer.contracts.event.Event;

/** What a node publishes on {@code telemetry.samples.v1}: its registration, then periodic samples; keyed by node id. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = NodeRegistration.class, name = "registration"),
        @JsonSubTypes.Type(value = TelemetrySample.class, name = "sample")
})
public sealed interface NodeTelemetry extends Event permits NodeRegistration, TelemetrySample {

    String nodeId();

    @Override
    default String key() {
        return nodeId();
    }
}
