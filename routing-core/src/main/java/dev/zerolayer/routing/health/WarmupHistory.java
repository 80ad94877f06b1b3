package dev.zerolayer.routing.health;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** A node's recent warm-up durations (the last {@value #KEPT}); the prediction is their mean, or the default before any. */
public final class WarmupHistory {

    static final int KEPT = 5;

    private final Deque<Long> durationsMs = new ArrayDeque<>();

    public WarmupHistory(List<Long> pastDurationsMs) {
        pastDurationsMs.forEach(this::record);
    }

    public WarmupHistory() {
        this(List.of());
    }

    public synchronized void record(long durationMs) {
        if (durationMs <= 0) {
            return;
        }
        durationsMs.addLast(durationMs);
        while (durationsMs.size() > KEPT) {
            durationsMs.removeFirst();
        }
    }

    public synchronized long predictMs(long defaultMs) {
        return durationsMs.isEmpty() ? defaultMs
                : Math.round(durationsMs.stream().mapToLong(Long::longValue).average().orElse(defaultMs));
    }

    public synchronized List<Long> durationsMs() {
        return List.copyOf(durationsMs);
    }
}
