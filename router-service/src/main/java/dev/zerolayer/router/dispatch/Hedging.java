package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.fallback.Hedge;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hedged first tokens: each node's recent times to first byte per prompt size (powers of two of its tokens), whose p95
 * is the delay after which a request still waiting on that node is hedged (the policy's fixed delay when it names
 * one; none until {@link #MIN_SAMPLES} are known), and a per-tier budget that keeps hedges to a share of the tier's
 * requests (each request adds the share, a hedge takes one, a few saved at most). Outcomes counted in
 * {@code zerolayer_hedges_total{tier,outcome}}.
 */
public final class Hedging {

    /** Times kept per node and prompt size. */
    static final int SAMPLES = 64;
    /** Times needed before a learned delay is trusted. */
    static final int MIN_SAMPLES = 20;
    private static final int BUCKETS = 24;
    private static final long ONE = 1_000_000L;
    /** Hedges a tier may save up. */
    private static final long MOST_SAVED = 3 * ONE;

    private final Map<String, Ring[]> times = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> budgets = new ConcurrentHashMap<>();
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    public Hedging(MeterRegistry meters) {
        this.meters = meters;
    }

    /** A node's first byte came {@code nanos} after it was asked, for a prompt of {@code promptTokens}. */
    public void observe(String node, int promptTokens, long nanos) {
        ring(node, promptTokens).add(nanos);
    }

    private Ring ring(String node, int promptTokens) {
        Ring[] rings = times.computeIfAbsent(node, n -> new Ring[BUCKETS]);
        int at = bucket(promptTokens);
        Ring ring = rings[at];
        if (ring == null) {
            synchronized (rings) {
                ring = rings[at];
                if (ring == null) {
                    ring = new Ring();
                    rings[at] = ring;
                }
            }
        }
        return ring;
    }

    /**
     * The delay before a request waiting on {@code node} is hedged: the policy's, else the node's learned p95 for the
     * prompt's size; -1 when hedging is off or nothing is learned yet.
     */
    public long delayNanos(Hedge policy, String node, int promptTokens) {
        if (policy == null || !policy.enabled()) {
            return -1;
        }
        if (policy.delayMs() != null) {
            return policy.delayMs() * 1_000_000L;
        }
        Ring[] rings = times.get(node);
        Ring ring = rings == null ? null : rings[bucket(promptTokens)];
        return ring == null ? -1 : ring.p95();
    }

    /** A request of a hedging tier arrived: its share of a hedge is saved. */
    public void request(String tier, Hedge policy) {
        AtomicLong saved = budgets.computeIfAbsent(tier, t -> new AtomicLong(ONE));
        long share = Math.round(policy.budgetPercent() / 100.0 * ONE);
        saved.updateAndGet(now -> Math.min(MOST_SAVED, now + share));
    }

    /** Whether the tier's budget has a hedge left (taking it). */
    public boolean tryHedge(String tier) {
        AtomicLong saved = budgets.computeIfAbsent(tier, t -> new AtomicLong(ONE));
        long now;
        do {
            now = saved.get();
            if (now < ONE) {
                return false;
            }
        } while (!saved.compareAndSet(now, now - ONE));
        return true;
    }

    /** A hedge's outcome: {@code won} (the hedge served), {@code lost} (the late node still did) or {@code failed}. */
    public void outcome(String tier, String outcome) {
        outcomes.computeIfAbsent(tier + '|' + outcome, k -> Counter.builder("zerolayer_hedges")
                .tag("tier", tier).tag("outcome", outcome).register(meters)).increment();
    }

    private static int bucket(int promptTokens) {
        return Math.min(BUCKETS - 1, 32 - Integer.numberOfLeadingZeros(Math.max(0, promptTokens)));
    }

    /** The last {@link #SAMPLES} times of one node and prompt size. */
    static final class Ring {
        private final long[] values = new long[SAMPLES];
        private int count;
        private int next;

        synchronized void add(long nanos) {
            values[next] = nanos;
            next = (next + 1) % SAMPLES;
            count = Math.min(SAMPLES, count + 1);
        }

        synchronized long p95() {
            if (count < MIN_SAMPLES) {
                return -1;
            }
            long[] sorted = Arrays.copyOf(values, count);
            Arrays.sort(sorted);
            return sorted[Math.min(count - 1, (int) Math.ceil(0.95 * count) - 1)];
        }
    }
}
