package dev.zerolayer.routing.prefix;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Approximate prefix matching from the router's own history: a node that served a prompt is assumed to hold the
 * leading blocks of the router's chain of it for a time-to-live, refreshed by every later prompt sent there with them,
 * at most {@code maxBlocksPerNode} per node (the least recently sent go first).
 */
public final class SentPrefixes {

    private final long ttlMillis;
    private final int maxBlocksPerChain;
    private final int maxBlocksPerNode;
    private final LongSupplier clockMillis;
    /** Per node, block hash to the time its assumption runs out, least recently sent first. */
    private final Map<String, LinkedHashMap<Long, Long>> sent = new ConcurrentHashMap<>();

    /**
     * @param ttlMillis         how long a node is assumed to hold the blocks of a prompt sent to it
     * @param maxBlocksPerChain leading blocks of one prompt remembered at most
     * @param maxBlocksPerNode  blocks remembered per node at most
     * @param clockMillis       the current time in milliseconds
     */
    public SentPrefixes(long ttlMillis, int maxBlocksPerChain, int maxBlocksPerNode, LongSupplier clockMillis) {
        if (ttlMillis <= 0 || maxBlocksPerChain <= 0 || maxBlocksPerNode <= 0) {
            throw new IllegalArgumentException("time-to-live and sizes must be positive");
        }
        this.ttlMillis = ttlMillis;
        this.maxBlocksPerChain = maxBlocksPerChain;
        this.maxBlocksPerNode = maxBlocksPerNode;
        this.clockMillis = clockMillis;
    }

    /** Remembers that {@code node} served a prompt whose chain (first block first) is {@code chain}. */
    public void served(String node, long[] chain) {
        if (node == null || chain.length == 0) {
            return;
        }
        long now = clockMillis.getAsLong();
        long expiry = now + ttlMillis;
        LinkedHashMap<Long, Long> held = sent.computeIfAbsent(node, n -> new LinkedHashMap<>());
        synchronized (held) {
            int count = Math.min(chain.length, maxBlocksPerChain);
            for (int i = 0; i < count; i++) {
                held.remove(chain[i]);
                held.put(chain[i], expiry);
            }
            Iterator<Map.Entry<Long, Long>> eldest = held.entrySet().iterator();
            while (eldest.hasNext()) {
                Map.Entry<Long, Long> entry = eldest.next();
                if (held.size() <= maxBlocksPerNode && entry.getValue() > now) {
                    break;
                }
                eldest.remove();
            }
        }
    }

    /** How many leading blocks of {@code chain} {@code node} is assumed to hold without a gap (0: none). */
    public int leadingBlocks(String node, long[] chain) {
        LinkedHashMap<Long, Long> held = sent.get(node);
        if (held == null) {
            return 0;
        }
        long now = clockMillis.getAsLong();
        synchronized (held) {
            int i = 0;
            while (i < chain.length) {
                Long expiry = held.get(chain[i]);
                if (expiry == null || expiry <= now) {
                    break;
                }
                i++;
            }
            return i;
        }
    }

    /** Forgets everything assumed of {@code node} (its cache is gone). */
    public void forget(String node) {
        sent.remove(node);
    }

    /** Blocks currently remembered over all nodes, expired ones not yet dropped included. */
    public int size() {
        int size = 0;
        for (LinkedHashMap<Long, Long> held : sent.values()) {
            synchronized (held) {
                size += held.size();
            }
        }
        return size;
    }
}
