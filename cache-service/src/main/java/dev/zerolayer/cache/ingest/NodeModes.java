package dev.zerolayer.cache.ingest;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which nodes report their KV cache themselves: a node is in events mode from its first KV event of this run on, and
 * every other node's blocks are only estimated from the router's decisions (approximate mode).
 */
public final class NodeModes {

    private final Set<String> reporting = ConcurrentHashMap.newKeySet();

    /** Marks a node as reporting; says whether this is new. */
    public boolean markReporting(String node) {
        return reporting.add(node);
    }

    public boolean reports(String node) {
        return reporting.contains(node);
    }

    public Set<String> reportingNodes() {
        return Set.copyOf(reporting);
    }
}
