package dev.zerolayer.contracts.event;

import java.time.Instant;

/** Every event carries an id, the instant it happened, its schema version and the key it is published under. */
public interface Event {

    String eventId();

    Instant occurredAt();

    int schemaVersion();

    /** The Kafka record key this event is published under. */
    String key();
}
