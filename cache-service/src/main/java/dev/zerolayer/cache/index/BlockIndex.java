package dev.zerolayer.cache.index;

import dev.zerolayer.routing.prefix.PrefixOverlap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * Which nodes hold each KV block: block hash → holder set, kept in primitive arrays (one or two holders inline in the
 * map's value, three or more in a pooled sorted array). Every change marks the block dirty with its holder set from
 * before, so {@link #drainChanges} yields only blocks whose holders really differ from what was last drained
 * (coalescing bursts into one update per block). Thread-safe: every method holds the index's lock.
 */
public final class BlockIndex {

    private static final long LOW31 = 0x7FFFFFFFL;

    private final LongLongMap blocks;
    private LongLongMap dirty = new LongLongMap(1024);
    private final Map<String, Integer> nodeIds = new HashMap<>();
    private final List<String> nodeNames = new ArrayList<>();
    private int[] counts = new int[16];
    private int[][] pool = new int[64][];
    private int[] freeSlots = new int[64];
    private int freeCount;
    private int poolUsed;
    private long pairs;

    public BlockIndex(int expectedBlocks) {
        blocks = new LongLongMap(expectedBlocks);
    }

    public BlockIndex() {
        this(1024);
    }

    /** One block whose holders changed since the last drain: its holders now (empty: nobody holds it any more). */
    public record Change(long blockHash, List<String> nodes) {
    }

    // ---- updates ----

    /** Records that a node holds a block; says whether that changed anything. */
    public synchronized boolean add(long block, String node) {
        return addIndex(block, nodeIndex(node), true);
    }

    /** Records that a node no longer holds a block; says whether it had. */
    public synchronized boolean remove(long block, String node) {
        Integer n = nodeIds.get(node);
        return n != null && removeIndex(block, n, true);
    }

    /** Drops every block a node holds; returns how many. */
    public synchronized int clearNode(String node) {
        return retainNode(node, block -> false);
    }

    /** Drops the node's blocks that {@code keep} rejects; returns how many were dropped. */
    public synchronized int retainNode(String node, LongPredicate keep) {
        Integer n = nodeIds.get(node);
        if (n == null || counts[n] == 0) {
            return 0;
        }
        int node0 = n;
        long[] held = new long[counts[node0]];
        int[] found = {0};
        blocks.forEach((block, value) -> {
            if (contains(value, node0) && !keep.test(block) && found[0] < held.length) {
                held[found[0]++] = block;
            }
        });
        for (int i = 0; i < found[0]; i++) {
            removeIndex(held[i], node0, true);
        }
        return found[0];
    }

    /**
     * Sets a block's holders as read back from the published index (restore): replaces whatever was known, without
     * marking anything dirty. An empty collection forgets the block.
     */
    public synchronized void load(long block, Collection<String> nodes) {
        long old = blocks.get(block);
        if (old != LongLongMap.MISSING) {
            for (int n : decode(old)) {
                removeIndex(block, n, false);
            }
        }
        for (String node : nodes) {
            addIndex(block, nodeIndex(node), false);
        }
    }

    /** Marks a block dirty again with the holder signature it had before (a publication that did not go out). */
    public synchronized void requeue(long block, long signatureBefore) {
        dirty.putIfAbsent(block, signatureBefore);
    }

    /**
     * Makes the next drains yield exactly what the published index lacks: every block whose holders differ from
     * {@code published} (block → holders as the topic has them) is marked dirty against the published holders, and
     * nothing else stays dirty (a replica taking over publication from another).
     */
    public synchronized void reconcile(Map<Long, List<String>> published) {
        dirty = new LongLongMap(Math.max(1024, published.size()));
        blocks.forEach((block, value) -> {
            List<String> there = published.get(block);
            long before = there == null ? 0 : signatureOf(there);
            if (before != signature(value)) {
                dirty.put(block, before);
            }
        });
        published.forEach((block, there) -> {
            if (!there.isEmpty() && blocks.get(block) == LongLongMap.MISSING) {
                dirty.put(block, signatureOf(there));
            }
        });
    }

    // ---- reads ----

    /** The nodes holding a block, sorted by id (empty when none). */
    public synchronized List<String> holders(long block) {
        return names(blocks.get(block));
    }

    public synchronized boolean holds(long block, String node) {
        Integer n = nodeIds.get(node);
        long value = blocks.get(block);
        return n != null && value != LongLongMap.MISSING && contains(value, n);
    }

    /** Leading blocks of the chain each node holds without a gap (nodes holding none are absent). */
    public synchronized Map<String, Integer> leadingBlocks(long[] chain) {
        return PrefixOverlap.leadingBlocks(chain, block -> {
            long value = blocks.get(block);
            return value == LongLongMap.MISSING ? null : names(value);
        });
    }

    /** Distinct blocks held by at least one node. */
    public synchronized int blocks() {
        return blocks.size();
    }

    /** (block, node) pairs held. */
    public synchronized long pairs() {
        return pairs;
    }

    /** Blocks held per node, for every node that holds at least one. */
    public synchronized SortedMap<String, Integer> blocksPerNode() {
        SortedMap<String, Integer> result = new TreeMap<>();
        for (int i = 0; i < nodeNames.size(); i++) {
            if (counts[i] > 0) {
                result.put(nodeNames.get(i), counts[i]);
            }
        }
        return result;
    }

    public synchronized int blocksOf(String node) {
        Integer n = nodeIds.get(node);
        return n == null ? 0 : counts[n];
    }

    /** Blocks waiting to be drained. */
    public synchronized int pendingChanges() {
        return dirty.size();
    }

    /** Slots of the block table (for memory accounting). */
    public synchronized int tableCapacity() {
        return blocks.capacity();
    }

    /**
     * Takes up to {@code max} dirty blocks and returns those whose holders differ from before their first change since
     * the last drain, each with its holders now; {@code signaturesOut}, when given, receives each returned change's
     * signature-before at the same position (for {@link #requeue}).
     */
    public synchronized List<Change> drainChanges(int max, long[] signaturesOut) {
        int take = Math.min(max, dirty.size());
        if (take == 0) {
            return List.of();
        }
        long[] keys = new long[take];
        long[] before = new long[take];
        int n = dirty.firstEntries(keys, before);
        List<Change> changes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            dirty.remove(keys[i]);
            long value = blocks.get(keys[i]);
            long now = value == LongLongMap.MISSING ? 0 : signature(value);
            if (now != before[i]) {
                if (signaturesOut != null && changes.size() < signaturesOut.length) {
                    signaturesOut[changes.size()] = before[i];
                }
                changes.add(new Change(keys[i], names(value)));
            }
        }
        if (dirty.size() == 0 && dirty.capacity() > 1 << 16) {
            dirty = new LongLongMap(1024); // a burst (a restore, a bulk load) does not keep its table
        }
        return changes;
    }

    // ---- internals ----

    private int nodeIndex(String node) {
        Integer n = nodeIds.get(node);
        if (n != null) {
            return n;
        }
        int index = nodeNames.size();
        nodeIds.put(node, index);
        nodeNames.add(node);
        if (index >= counts.length) {
            counts = Arrays.copyOf(counts, counts.length * 2);
        }
        return index;
    }

    private boolean addIndex(long block, int n, boolean track) {
        long value = blocks.get(block);
        if (value != LongLongMap.MISSING && contains(value, n)) {
            return false;
        }
        if (track) {
            markDirty(block, value); // before a pooled set grows in place, or its signature-before would be the new one
        }
        long updated;
        if (value == LongLongMap.MISSING) {
            updated = inline(n, -1);
        } else if (value > 0) {
            int a = first(value);
            int b = second(value);
            if (b < 0) {
                updated = n < a ? inline(n, a) : inline(a, n);
            } else {
                int[] set = {a, b, n};
                Arrays.sort(set);
                updated = poolRef(store(set));
            }
        } else {
            int slot = slotOf(value);
            int[] set = pool[slot];
            int[] grown = Arrays.copyOf(set, set.length + 1);
            grown[set.length] = n;
            Arrays.sort(grown);
            pool[slot] = grown;
            updated = value;
        }
        blocks.put(block, updated);
        counts[n]++;
        pairs++;
        return true;
    }

    private boolean removeIndex(long block, int n, boolean track) {
        long value = blocks.get(block);
        if (value == LongLongMap.MISSING || !contains(value, n)) {
            return false;
        }
        if (track) {
            markDirty(block, value);
        }
        if (value > 0) {
            int a = first(value);
            int b = second(value);
            if (b < 0) {
                blocks.remove(block);
            } else {
                blocks.put(block, inline(a == n ? b : a, -1));
            }
        } else {
            int slot = slotOf(value);
            int[] set = pool[slot];
            if (set.length == 3) {
                int x = set[0] == n ? set[1] : set[0];
                int y = set[2] == n ? set[1] : set[2];
                release(slot);
                blocks.put(block, inline(Math.min(x, y), Math.max(x, y)));
            } else {
                int[] shrunk = new int[set.length - 1];
                int j = 0;
                for (int member : set) {
                    if (member != n) {
                        shrunk[j++] = member;
                    }
                }
                pool[slot] = shrunk;
            }
        }
        counts[n]--;
        pairs--;
        return true;
    }

    private void markDirty(long block, long valueBefore) {
        if (!dirty.containsKey(block)) {
            dirty.put(block, valueBefore == LongLongMap.MISSING ? 0 : signature(valueBefore));
        }
    }

    /** The signature a block held by exactly these nodes has (as {@link #signature} of its stored value). */
    private long signatureOf(Collection<String> nodes) {
        int[] members = nodes.stream().distinct().mapToInt(this::nodeIndex).sorted().toArray();
        if (members.length == 0) {
            return 0;
        }
        if (members.length <= 2) {
            return inline(members[0], members.length == 2 ? members[1] : -1);
        }
        return poolSignature(members);
    }

    /** A value's holder set as a number: the inline value itself, or a hash of the pooled set with the sign bit set. */
    private long signature(long value) {
        if (value > 0) {
            return value;
        }
        return poolSignature(pool[slotOf(value)]);
    }

    private static long poolSignature(int[] members) {
        long h = 0x9E3779B97F4A7C15L;
        for (int member : members) {
            h = (h ^ member) * 0xff51afd7ed558ccdL;
            h ^= h >>> 33;
        }
        long signed = h | Long.MIN_VALUE;
        return signed == LongLongMap.MISSING ? signed + 1 : signed;
    }

    private static long inline(int a, int b) {
        return (a + 1L) | ((b + 1L) << 31);
    }

    private static int first(long value) {
        return (int) (value & LOW31) - 1;
    }

    private static int second(long value) {
        return (int) ((value >>> 31) & LOW31) - 1;
    }

    private static long poolRef(int slot) {
        return -(slot + 1L);
    }

    private static int slotOf(long value) {
        return (int) (-(value + 1));
    }

    private boolean contains(long value, int n) {
        if (value > 0) {
            return first(value) == n || second(value) == n;
        }
        return Arrays.binarySearch(pool[slotOf(value)], n) >= 0;
    }

    private int[] decode(long value) {
        if (value > 0) {
            int b = second(value);
            return b < 0 ? new int[] {first(value)} : new int[] {first(value), b};
        }
        return pool[slotOf(value)].clone();
    }

    private List<String> names(long value) {
        if (value == LongLongMap.MISSING) {
            return List.of();
        }
        int[] members = decode(value);
        String[] names = new String[members.length];
        for (int i = 0; i < members.length; i++) {
            names[i] = nodeNames.get(members[i]);
        }
        Arrays.sort(names);
        return List.of(names);
    }

    private int store(int[] set) {
        int slot;
        if (freeCount > 0) {
            slot = freeSlots[--freeCount];
        } else {
            if (poolUsed == pool.length) {
                pool = Arrays.copyOf(pool, pool.length * 2);
            }
            slot = poolUsed++;
        }
        pool[slot] = set;
        return slot;
    }

    private void release(int slot) {
        pool[slot] = null;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
        }
        freeSlots[freeCount++] = slot;
    }
}
