package dev.zerolayer.simulator.node;

/** Events per second over the last second, from ten 100 ms buckets on the monotonic clock. */
final class SlidingRate {

    private static final long BUCKET_NANOS = 100_000_000L;
    private static final int BUCKETS = 10;

    private final long[] counts = new long[BUCKETS];
    private final long[] stamps = new long[BUCKETS];

    synchronized void add(long amount, long nowNanos) {
        if (amount <= 0) {
            return;
        }
        long slot = nowNanos / BUCKET_NANOS;
        int i = (int) Math.floorMod(slot, (long) BUCKETS);
        if (stamps[i] != slot) {
            stamps[i] = slot;
            counts[i] = 0;
        }
        counts[i] += amount;
    }

    synchronized double perSecond(long nowNanos) {
        long slot = nowNanos / BUCKET_NANOS;
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (slot - stamps[i] < BUCKETS) {
                total += counts[i];
            }
        }
        return total;
    }
}
