package dev.zerolayer.contracts.cache;

/** The three KV-cache event kinds a node emits, after vLLM's KV events. */
public enum KvEventType {
    BLOCK_STORED,
    BLOCK_REMOVED,
    ALL_BLOCKS_CLEARED
}
