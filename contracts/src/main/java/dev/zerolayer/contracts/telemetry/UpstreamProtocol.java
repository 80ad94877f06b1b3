package dev.zerolayer.contracts.telemetry;

import com.fasterxml.jackson.annotation.JsonValue;

/** The client API a node's upstream speaks. */
public enum UpstreamProtocol {
    ANTHROPIC,
    OPENAI;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
