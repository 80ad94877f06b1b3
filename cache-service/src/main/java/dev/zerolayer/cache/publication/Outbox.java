package dev.zerolayer.cache.publication;

import dev.zerolayer.contracts.event.Event;
import java.util.List;

/** Where a round of the cache's state goes: all of its records or none of them (false), in the order given. */
public interface Outbox {

    boolean send(List<Outgoing> round);

    /** One record of a round: an event under its key, or a tombstone (no event) for a key of a compacted topic. */
    record Outgoing(String topic, String key, Event event) {

        public static Outgoing of(String topic, Event event) {
            return new Outgoing(topic, event.key(), event);
        }

        public static Outgoing tombstone(String topic, String key) {
            return new Outgoing(topic, key, null);
        }
    }
}
