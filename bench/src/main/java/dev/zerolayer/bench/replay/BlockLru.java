package dev.zerolayer.bench.replay;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node's KV prefix cache: at most {@code capacity} blocks, least recently used evicted first; a prompt's cached part
 * is its leading run of blocks present in the cache (a miss ends the run, as in vLLM's prefix caching).
 */
public final class BlockLru {

    private final int capacity;
    private final LinkedHashMap<Long, Boolean> blocks;
    private long evictions;

    public BlockLru(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = capacity;
        this.blocks = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                if (size() > BlockLru.this.capacity) {
                    evictions++;
                    return true;
                }
                return false;
            }
        };
    }

    /** Leading blocks of {@code prompt} held now, without touching recency (what a router's index would answer). */
    public int leadingHits(long[] prompt) {
        int hits = 0;
        while (hits < prompt.length && blocks.containsKey(prompt[hits])) {
            hits++;
        }
        return hits;
    }

    /**
     * Admits a prompt: its leading cached blocks become most recently used, then every block of the prompt is stored
     * (evicting the least recently used). Returns the leading blocks that were cached.
     */
    public int admit(long[] prompt) {
        int hits = 0;
        while (hits < prompt.length && blocks.get(prompt[hits]) != null) {
            hits++;
        }
        for (long block : prompt) {
            blocks.put(block, Boolean.TRUE);
        }
        return hits;
    }

    public void clear() {
        blocks.clear();
    }

    public int size() {
        return blocks.size();
    }

    public int capacity() {
        return capacity;
    }

    public long evictions() {
        return evictions;
    }
}
