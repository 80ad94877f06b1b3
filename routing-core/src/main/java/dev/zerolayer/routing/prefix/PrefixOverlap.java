package dev.zerolayer.routing.prefix;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * For a prompt's block-hash chain, how many leading blocks each node holds without a gap: a node counts block i only
 * if it also holds blocks 0..i-1 (KV reuse needs the whole prefix), read from an index of block hash to holders.
 */
public final class PrefixOverlap {

    private PrefixOverlap() {
    }

    /**
     * @param chain   the prompt's chained block hashes, first block first
     * @param holders the nodes holding a block hash (empty or null when none)
     * @return leading blocks held per node; nodes holding none are absent
     */
    public static Map<String, Integer> leadingBlocks(long[] chain, LongFunction<List<String>> holders) {
        Map<String, Integer> held = new HashMap<>();
        if (chain.length == 0) {
            return held;
        }
        List<String> first = holders.apply(chain[0]);
        if (first == null || first.isEmpty()) {
            return held;
        }
        Set<String> still = new HashSet<>(first);
        int i = 1;
        for (; i < chain.length && !still.isEmpty(); i++) {
            List<String> next = holders.apply(chain[i]);
            if (next == null || next.isEmpty()) {
                break;
            }
            var it = still.iterator();
            while (it.hasNext()) {
                String node = it.next();
                if (!next.contains(node)) {
                    held.put(node, i);
                    it.remove();
                }
            }
        }
        for (String node : still) {
            held.put(node, i);
        }
        return held;
    }
}
