package dev.zerolayer.cache.index;

import java.util.function.LongPredicate;

/**
 * An open-addressing map from {@code long} to {@code long} (linear probing, backward-shift deletion, power-of-two
 * table kept at most 3/4 full): about 17 bytes per slot and no object per entry, so a million KV blocks fit in tens of
 * megabytes. Not thread-safe.
 */
public final class LongLongMap {

    /** What {@link #get} answers for a missing key. */
    public static final long MISSING = Long.MIN_VALUE;

    private long[] keys;
    private long[] values;
    private boolean[] used;
    private int mask;
    private int size;
    private int resizeAt;

    public LongLongMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, (int) Math.min(1 << 30, expected * 4L / 3 + 1)) - 1) << 1;
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new long[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
        resizeAt = capacity / 4 * 3;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    public int size() {
        return size;
    }

    /** Slots allocated (for memory accounting). */
    public int capacity() {
        return keys.length;
    }

    public boolean containsKey(long key) {
        for (int i = slot(key); used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return true;
            }
        }
        return false;
    }

    /** The value of a key, or {@link #MISSING}. */
    public long get(long key) {
        for (int i = slot(key); used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return MISSING;
    }

    public void put(long key, long value) {
        int i = slot(key);
        for (; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        if (++size > resizeAt) {
            grow();
        }
    }

    /** Puts the value only when the key is absent; says whether it did. */
    public boolean putIfAbsent(long key, long value) {
        if (containsKey(key)) {
            return false;
        }
        put(key, value);
        return true;
    }

    /** Removes a key; returns its value or {@link #MISSING}. */
    public long remove(long key) {
        int i = slot(key);
        for (; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                long old = values[i];
                shiftBack(i);
                size--;
                return old;
            }
        }
        return MISSING;
    }

    private void shiftBack(int gap) {
        int i = gap;
        while (true) {
            i = (i + 1) & mask;
            if (!used[i]) {
                break;
            }
            int home = slot(keys[i]);
            // move the entry at i into the gap when its home slot is not cyclically in (gap, i]
            boolean movable = gap <= i ? (home <= gap || home > i) : (home <= gap && home > i);
            if (movable) {
                keys[gap] = keys[i];
                values[gap] = values[i];
                gap = i;
            }
        }
        used[gap] = false;
        keys[gap] = 0;
        values[gap] = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        boolean[] oldUsed = used;
        allocate(keys.length * 2);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    /** Receives each entry. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(long key, long value);
    }

    /** Visits every entry (the map must not change meanwhile). */
    public void forEach(EntryVisitor visitor) {
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                visitor.visit(keys[i], values[i]);
            }
        }
    }

    /** Removes every entry whose key matches; returns how many. */
    public int removeIf(LongPredicate keyMatches) {
        long[] matched = new long[Math.min(size, 1024)];
        int count = 0;
        for (int i = 0; i < keys.length; i++) {
            if (used[i] && keyMatches.test(keys[i])) {
                if (count == matched.length) {
                    matched = java.util.Arrays.copyOf(matched, matched.length * 2);
                }
                matched[count++] = keys[i];
            }
        }
        for (int i = 0; i < count; i++) {
            remove(matched[i]);
        }
        return count;
    }

    /** Copies up to {@code keysOut.length} entries (in table order) into the arrays; returns how many. */
    public int firstEntries(long[] keysOut, long[] valuesOut) {
        int n = 0;
        for (int i = 0; i < keys.length && n < keysOut.length; i++) {
            if (used[i]) {
                keysOut[n] = keys[i];
                valuesOut[n] = values[i];
                n++;
            }
        }
        return n;
    }

    public void clear() {
        java.util.Arrays.fill(used, false);
        java.util.Arrays.fill(keys, 0);
        java.util.Arrays.fill(values, 0);
        size = 0;
    }
}
