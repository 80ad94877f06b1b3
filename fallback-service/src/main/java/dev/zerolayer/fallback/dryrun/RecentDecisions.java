package dev.zerolayer.fallback.dryrun;

import java.util.ArrayList;
import java.util.List;

/** The replay inputs of the last {@code capacity} routed decisions, in arrival order, in a fixed-size ring. */
public class RecentDecisions {

    private final ReplayInput[] ring;
    private long added;

    public RecentDecisions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        ring = new ReplayInput[capacity];
    }

    public synchronized void add(ReplayInput input) {
        ring[(int) (added % ring.length)] = input;
        added++;
    }

    /** Oldest first. */
    public synchronized List<ReplayInput> snapshot() {
        int size = (int) Math.min(added, ring.length);
        List<ReplayInput> out = new ArrayList<>(size);
        long first = added - size;
        for (long i = first; i < added; i++) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return out;
    }

    public int capacity() {
        return ring.length;
    }

    public synchronized long added() {
        return added;
    }
}
