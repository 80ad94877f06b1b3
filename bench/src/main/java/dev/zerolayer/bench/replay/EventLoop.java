package dev.zerolayer.bench.replay;

import java.util.PriorityQueue;

/**
 * A discrete-event clock: actions run in time order, actions at the same time in the order they were scheduled; time
 * never goes back, and an action may schedule more.
 */
public final class EventLoop {

    private record Event(double at, long sequence, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            int byTime = Double.compare(at, other.at);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private double now;
    private long sequence;
    private long executed;

    public EventLoop(double start) {
        this.now = start;
    }

    public double now() {
        return now;
    }

    /** Runs {@code action} at {@code at}; a time in the past runs it now (after what is already due now). */
    public void at(double at, Runnable action) {
        if (!Double.isFinite(at)) {
            throw new IllegalArgumentException("event time must be finite");
        }
        queue.add(new Event(Math.max(at, now), sequence++, action));
    }

    public void after(double delay, Runnable action) {
        at(now + Math.max(0, delay), action);
    }

    /** Runs events until none is left or {@code until} says stop (checked before each event). */
    public void run(java.util.function.BooleanSupplier until) {
        while (!queue.isEmpty() && !until.getAsBoolean()) {
            Event next = queue.poll();
            now = next.at();
            executed++;
            next.action().run();
        }
    }

    public void run() {
        run(() -> false);
    }

    public long executed() {
        return executed;
    }

    public int pending() {
        return queue.size();
    }
}
