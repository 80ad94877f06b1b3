package dev.zerolayer.cache.publication;

import dev.zerolayer.contracts.event.Event;

/** Where the cache's state goes: an event, or a tombstone for a key of a compacted topic; false when it did not go. */
public interface Outbox {

    boolean publish(String binding, Event event);

    boolean tombstone(String binding, String key);
}
