package dev.zerolayer.simulator.kv;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.event.EventChecks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * One node's prefix cache: an LRU of chained block hashes with a capacity in blocks. A prompt reuses its leading cached
 * blocks; storing a prompt's chain emits BLOCK_STORED per contiguous run of new blocks (with the hash before the run as
 * parent), evictions emit BLOCK_REMOVED, clearing emits ALL_BLOCKS_CLEARED; every event carries the next value of a
 * per-node sequence that starts at the creation time in microseconds, so it keeps increasing across process restarts.
 */
public final class KvBlockCache {

    private final String nodeId;
    private final long capacity;
    private final int blockSize;
    private final KvEventSink sink;
    private final Clock clock;
    private final LinkedHashMap<Long, Boolean> blocks = new LinkedHashMap<>(1024, 0.75f, true);
    private long nextSequence;
    private long evicted;
    private long queriedTokens;
    private long hitTokens;

    public KvBlockCache(String nodeId, long capacityBlocks, int blockSize, KvEventSink sink, Clock clock) {
        if (capacityBlocks < 1 || blockSize < 1) {
            throw new IllegalArgumentException("capacity and block size must be >= 1");
        }
        this.nodeId = nodeId;
        this.capacity = capacityBlocks;
        this.blockSize = blockSize;
        this.sink = sink;
        this.clock = clock;
        this.nextSequence = clock.millis() * 1000;
    }

    public int blockSize() {
        return blockSize;
    }

    public long capacity() {
        return capacity;
    }

    /**
     * How many leading blocks of the chain are cached (they become most recently used); {@code promptTokens} feeds the
     * prefix-cache query and hit counters.
     */
    public synchronized int lookup(long[] chain, int promptTokens) {
        int cached = 0;
        while (cached < chain.length && blocks.get(chain[cached]) != null) {
            cached++;
        }
        queriedTokens += promptTokens;
        hitTokens += (long) cached * blockSize;
        return cached;
    }

    /** What a store changed: blocks added and blocks evicted to make room. */
    public record Stored(int added, int evicted) {
    }

    /** Stores every block of the chain (cached ones are touched); says how many were new and how many were evicted. */
    public synchronized Stored store(long[] chain) {
        List<Long> run = new ArrayList<>();
        Long runParent = null;
        int added = 0;
        for (int i = 0; i < chain.length; i++) {
            long hash = chain[i];
            if (blocks.get(hash) != null) {
                emitStored(run, runParent);
                run = new ArrayList<>();
                continue;
            }
            if (run.isEmpty()) {
                runParent = i == 0 ? null : chain[i - 1];
            }
            blocks.put(hash, Boolean.TRUE);
            run.add(hash);
            added++;
        }
        emitStored(run, runParent);
        return new Stored(added, evictOverflow());
    }

    /** Marks the given hashes cached, in order, as one chain (a prewarm). */
    public synchronized Stored prewarm(List<Long> hashes) {
        long[] chain = new long[hashes.size()];
        for (int i = 0; i < chain.length; i++) {
            chain[i] = hashes.get(i);
        }
        return store(chain);
    }

    /** Drops every block (crash or restart) and says so with ALL_BLOCKS_CLEARED. */
    public synchronized void clear() {
        blocks.clear();
        emit(KvEventType.ALL_BLOCKS_CLEARED, List.of(), null);
    }

    public synchronized boolean contains(long hash) {
        return blocks.containsKey(hash);
    }

    public synchronized int size() {
        return blocks.size();
    }

    /** Share of the capacity in use, in [0,1]. */
    public synchronized double usage() {
        return Math.min(1.0, blocks.size() / (double) capacity);
    }

    /** Blocks evicted since start. */
    public synchronized long evictedBlocks() {
        return evicted;
    }

    /** Prompt tokens looked up since start. */
    public synchronized long queriedTokens() {
        return queriedTokens;
    }

    /** Prompt tokens found cached since start. */
    public synchronized long hitTokens() {
        return hitTokens;
    }

    private int evictOverflow() {
        if (blocks.size() <= capacity) {
            return 0;
        }
        List<Long> removed = new ArrayList<>();
        Iterator<Long> eldest = blocks.keySet().iterator();
        while (blocks.size() > capacity && eldest.hasNext()) {
            removed.add(eldest.next());
            eldest.remove();
        }
        evicted += removed.size();
        if (!removed.isEmpty()) {
            emit(KvEventType.BLOCK_REMOVED, removed, null);
        }
        return removed.size();
    }

    private void emitStored(List<Long> run, Long parent) {
        if (!run.isEmpty()) {
            emit(KvEventType.BLOCK_STORED, run, parent);
        }
    }

    private void emit(KvEventType type, List<Long> hashes, Long parent) {
        sink.publish(new KvCacheEvent(EventChecks.newEventId(), clock.instant(), KvCacheEvent.SCHEMA_VERSION, nodeId,
                nextSequence++, type, hashes, parent, blockSize));
    }
}
