package dev.zerolayer.simulator.latency;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Time-to-first-token observations in vLLM's histogram buckets (seconds), cumulative counts, sum and count. */
public final class TtftHistogram {

    /** vLLM's {@code vllm:time_to_first_token_seconds} bucket bounds. */
    public static final List<Double> BOUNDS = List.of(0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
            1.0, 2.5, 5.0, 7.5, 10.0);

    /** A consistent-enough copy: cumulative count per bound (then +Inf), sum of seconds, count. */
    public record Snapshot(long[] cumulative, double sum, long count) {
    }

    private final AtomicLongArray buckets = new AtomicLongArray(BOUNDS.size() + 1);
    private final DoubleAdder sum = new DoubleAdder();
    private final LongAdder count = new LongAdder();

    public void record(double seconds) {
        int i = 0;
        while (i < BOUNDS.size() && seconds > BOUNDS.get(i)) {
            i++;
        }
        buckets.incrementAndGet(i);
        sum.add(seconds);
        count.increment();
    }

    public Snapshot snapshot() {
        long[] cumulative = new long[buckets.length()];
        long running = 0;
        for (int i = 0; i < cumulative.length; i++) {
            running += buckets.get(i);
            cumulative[i] = running;
        }
        return new Snapshot(cumulative, sum.sum(), running);
    }
}
