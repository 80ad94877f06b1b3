package dev.zerolayer.routing.health;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A cluster's load spike: the load now is more than {@code rise} (0.30 = 30 %) above the lowest load seen within the
 * window (one second), measured against a floor of {@value #FLOOR} so an idle cluster's noise is no spike; a spike
 * stays flagged for one window after the last rise that raised it, so a see-sawing load does not flap the flag.
 */
public final class LoadSpikeDetector {

    static final double FLOOR = 0.10;

    /** The window's ascending minima: each point is lower than every later one (O(1) amortised per observation). */
    private final Deque<Point> minima = new ArrayDeque<>();
    private double rise;
    private Duration span;
    private Instant flaggedUntil;
    private Instant latest;

    public LoadSpikeDetector(double rise, Duration span) {
        this.rise = rise;
        this.span = span;
    }

    /**
     * Adds a load observation and tells whether the cluster is in a spike. An observation stamped before the latest
     * one (nodes' samples interleave out of order across partitions) counts as made at the latest time.
     */
    public synchronized boolean observe(Instant stamped, double load) {
        Instant at = latest != null && stamped.isBefore(latest) ? latest : stamped;
        latest = at;
        while (!minima.isEmpty() && Duration.between(minima.peekFirst().at(), at).compareTo(span) > 0) {
            minima.removeFirst();
        }
        double lowest = minima.isEmpty() ? load : minima.peekFirst().load();
        while (!minima.isEmpty() && minima.peekLast().load() >= load) {
            minima.removeLast();
        }
        minima.addLast(new Point(at, load));
        if (load - lowest > rise * Math.max(lowest, FLOOR)) {
            flaggedUntil = at.plus(span);
            return true;
        }
        return flaggedUntil != null && at.isBefore(flaggedUntil);
    }

    public synchronized void configure(double newRise, Duration newSpan) {
        this.rise = newRise;
        this.span = newSpan;
    }

    private record Point(Instant at, double load) {
    }
}
