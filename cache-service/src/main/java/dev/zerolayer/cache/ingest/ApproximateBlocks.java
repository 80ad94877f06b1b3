package dev.zerolayer.cache.ingest;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Approximate mode for nodes that emit no KV events (as SGLang's and Dynamo's routers do without them): a node that
 * served a prompt is assumed to hold the prompt's leading blocks for a time-to-live, refreshed by every later prompt
 * that sends them there; at most {@code maxBlocksPerNode} are assumed per node (the oldest go first). Nodes that report
 * KV events are never estimated.
 */
public final class ApproximateBlocks {

    private final BlockIndex index;
    private final NodeModes modes;
    private final Duration ttl;
    private final int maxBlocksPerDecision;
    private final int maxBlocksPerNode;
    private final Map<String, LinkedHashMap<Long, Long>> expiries = new HashMap<>();

    public ApproximateBlocks(BlockIndex index, NodeModes modes, Duration ttl, int maxBlocksPerDecision,
            int maxBlocksPerNode) {
        this.index = index;
        this.modes = modes;
        this.ttl = ttl;
        this.maxBlocksPerDecision = maxBlocksPerDecision;
        this.maxBlocksPerNode = maxBlocksPerNode;
    }

    /** Learns from one decision; returns how many blocks it (re)assumed held. */
    public synchronized int observe(RoutingDecision decision, Instant now) {
        String node = decision.node();
        if (node == null || node.isBlank() || decision.prefixBlockHashes().isEmpty()
                || !(decision.status() == DecisionStatus.OK || decision.status() == DecisionStatus.STREAM_FAILED)
                || modes.reports(node)) {
            return 0;
        }
        long expiry = now.plus(ttl).toEpochMilli();
        LinkedHashMap<Long, Long> held = expiries.computeIfAbsent(node, n -> new LinkedHashMap<>());
        List<Long> blocks = decision.prefixBlockHashes();
        int count = Math.min(blocks.size(), maxBlocksPerDecision);
        for (int i = 0; i < count; i++) {
            Long block = blocks.get(i);
            held.remove(block);
            held.put(block, expiry);
            index.add(block, node);
        }
        Iterator<Map.Entry<Long, Long>> eldest = held.entrySet().iterator();
        while (held.size() > maxBlocksPerNode && eldest.hasNext()) {
            long block = eldest.next().getKey();
            eldest.remove();
            index.remove(block, node);
        }
        return count;
    }

    /** Drops every assumption whose time-to-live ran out; returns how many. */
    public synchronized int expire(Instant now) {
        long at = now.toEpochMilli();
        int expired = 0;
        for (Iterator<Map.Entry<String, LinkedHashMap<Long, Long>>> nodes = expiries.entrySet().iterator();
                nodes.hasNext();) {
            Map.Entry<String, LinkedHashMap<Long, Long>> node = nodes.next();
            Iterator<Map.Entry<Long, Long>> entries = node.getValue().entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<Long, Long> entry = entries.next();
                if (entry.getValue() > at) {
                    break;
                }
                entries.remove();
                index.remove(entry.getKey(), node.getKey());
                expired++;
            }
            if (node.getValue().isEmpty()) {
                nodes.remove();
            }
        }
        return expired;
    }

    /** Forgets a node's assumptions and removes them from the index (it now reports, or went DOWN). */
    public synchronized int forget(String node) {
        LinkedHashMap<Long, Long> held = expiries.remove(node);
        if (held == null) {
            return 0;
        }
        held.keySet().forEach(block -> index.remove(block, node));
        return held.size();
    }

    /** Forgets a node's assumptions without touching the index (it went DOWN and the index dropped it anyway). */
    public synchronized void discard(String node) {
        expiries.remove(node);
    }

    /** Whether a (block, node) pair is currently assumed from decisions. */
    public synchronized boolean assumed(long block, String node) {
        LinkedHashMap<Long, Long> held = expiries.get(node);
        return held != null && held.containsKey(block);
    }

    /** The assumptions held now: node → block → expiry (epoch milliseconds), oldest first per node (a copy). */
    public synchronized Map<String, LinkedHashMap<Long, Long>> snapshot() {
        Map<String, LinkedHashMap<Long, Long>> copy = new HashMap<>();
        expiries.forEach((node, held) -> copy.put(node, new LinkedHashMap<>(held)));
        return copy;
    }

    /**
     * Takes over assumptions made elsewhere (an events partition changing owner), each until its own expiry, oldest
     * first; skips nodes that report KV events and assumptions expired by {@code now}; returns how many it took.
     */
    public synchronized int adopt(Map<String, ? extends Map<Long, Long>> assumptions, Instant now) {
        long at = now.toEpochMilli();
        int taken = 0;
        for (Map.Entry<String, ? extends Map<Long, Long>> node : assumptions.entrySet()) {
            if (modes.reports(node.getKey())) {
                continue;
            }
            LinkedHashMap<Long, Long> held = expiries.computeIfAbsent(node.getKey(), n -> new LinkedHashMap<>());
            for (Map.Entry<Long, Long> assumption : node.getValue().entrySet()) {
                if (assumption.getValue() <= at || held.containsKey(assumption.getKey())) {
                    continue;
                }
                held.put(assumption.getKey(), assumption.getValue());
                index.add(assumption.getKey(), node.getKey());
                taken++;
            }
            Iterator<Map.Entry<Long, Long>> eldest = held.entrySet().iterator();
            while (held.size() > maxBlocksPerNode && eldest.hasNext()) {
                long block = eldest.next().getKey();
                eldest.remove();
                index.remove(block, node.getKey());
            }
            if (held.isEmpty()) {
                expiries.remove(node.getKey());
            }
        }
        return taken;
    }

    /** Pairs currently assumed, over all nodes. */
    public synchronized int size() {
        return expiries.values().stream().mapToInt(Map::size).sum();
    }
}
