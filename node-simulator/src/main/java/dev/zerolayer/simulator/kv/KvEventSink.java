package dev.zerolayer.simulator.kv;

import dev.zerolayer.contracts.cache.KvCacheEvent;

/** Where a node's KV-cache events go, in the order they happened; implementations must not block the caller. */
@FunctionalInterface
public interface KvEventSink {

    void publish(KvCacheEvent event);
}
