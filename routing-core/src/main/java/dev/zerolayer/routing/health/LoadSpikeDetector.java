package dev.zerolayer.routing.health;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A cluster's load spike: the load now is more than {@code rise} (0.30 = 30 %) above the lowest load seen within the
 * window (one second), measured against a floor of {@value #FLOOR} so an idle cluster's noise is no spike.
 */
public final class LoadSpikeDetector {

    static final double FLOOR = 0.10;

    private final Deque<Point> window = new ArrayDeque<>();
    private double rise;
    private Duration span;

    public LoadSpikeDetector(double rise, Duration span) {
        this.rise = rise;
        this.span = span;
    }

    /** Adds a load observation and tells whether it is a spike. Observations must come in time order. */
    public synchronized boolean observe(Instant at, double load) {
        while (!window.isEmpty() && Duration.between(window.peekFirst().at(), at).compareTo(span) > 0) {
            window.removeFirst();
        }
        double lowest = window.stream().mapToDouble(Point::load).min().orElse(load);
        window.addLast(new Point(at, load));
        return load - lowest > rise * Math.max(lowest, FLOOR);
    }

    public synchronized void configure(double newRise, Duration newSpan) {
        this.rise = newRise;
        this.span = newSpan;
    }

    private record Point(Instant at, double load) {
    }
}
