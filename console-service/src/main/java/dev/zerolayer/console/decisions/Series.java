package dev.zerolayer.console.decisions;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decisions counted into fixed time buckets (the newest {@code buckets} of {@code bucketSeconds} each): per bucket the
 * total, the fallbacks, the count per tier and per node, and each tier's time to first byte (p50 / p90 / p99 of up
 * to {@value #MAX_SAMPLES} samples); not thread-safe, its owner serialises access.
 */
public final class Series {

    static final int MAX_SAMPLES = 4_096;

    /** The charts' data: buckets oldest first. */
    public record View(int bucketSeconds, List<BucketView> buckets) {
    }

    /** One bucket's figures. */
    public record BucketView(Instant at, long total, long fallbacks, Map<String, Long> tiers,
            Map<String, Percentiles> ttft, Map<String, Long> nodes) {
    }

    /** Time-to-first-byte percentiles in milliseconds. */
    public record Percentiles(long p50, long p90, long p99) {
    }

    private static final class Bucket {
        final long start;
        long total;
        long fallbacks;
        final Map<String, Long> tiers = new TreeMap<>();
        final Map<String, Long> nodes = new TreeMap<>();
        final Map<String, long[]> ttft = new TreeMap<>();
        final Map<String, Integer> ttftCount = new TreeMap<>();

        Bucket(long start) {
            this.start = start;
        }
    }

    private final int bucketSeconds;
    private final int buckets;
    private final Deque<Bucket> window = new ArrayDeque<>();

    Series(int bucketSeconds, int buckets) {
        this.bucketSeconds = bucketSeconds;
        this.buckets = buckets;
    }

    void add(Instant at, String tier, String node, boolean fallback, long ttfbMillis, boolean served) {
        Bucket bucket = bucketFor(at.getEpochSecond() - Math.floorMod(at.getEpochSecond(), bucketSeconds));
        if (bucket == null) {
            return;
        }
        bucket.total++;
        bucket.fallbacks += fallback ? 1 : 0;
        if (tier != null) {
            bucket.tiers.merge(tier, 1L, Long::sum);
        }
        if (node != null) {
            bucket.nodes.merge(node, 1L, Long::sum);
        }
        if (served && tier != null && ttfbMillis > 0) {
            long[] samples = bucket.ttft.computeIfAbsent(tier, t -> new long[MAX_SAMPLES]);
            int count = bucket.ttftCount.getOrDefault(tier, 0);
            if (count < MAX_SAMPLES) {
                samples[count] = ttfbMillis;
                bucket.ttftCount.put(tier, count + 1);
            }
        }
    }

    /** The bucket starting at {@code start}, created when newer than every bucket; null when older than the window. */
    private Bucket bucketFor(long start) {
        for (Bucket bucket : window) {
            if (bucket.start == start) {
                return bucket;
            }
        }
        if (!window.isEmpty() && start < window.peekFirst().start) {
            return null;
        }
        if (!window.isEmpty() && start < window.peekLast().start) {
            return null; // a late decision for a gap bucket: dropped rather than reordering the window
        }
        Bucket created = new Bucket(start);
        window.addLast(created);
        while (window.size() > buckets) {
            window.removeFirst();
        }
        return created;
    }

    View view() {
        List<BucketView> out = window.stream().map(b -> {
            Map<String, Percentiles> ttft = new LinkedHashMap<>();
            b.ttft.forEach((tier, samples) -> {
                long[] sorted = Arrays.copyOf(samples, b.ttftCount.get(tier));
                Arrays.sort(sorted);
                ttft.put(tier, new Percentiles(rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.99)));
            });
            return new BucketView(Instant.ofEpochSecond(b.start), b.total, b.fallbacks, Map.copyOf(b.tiers), ttft,
                    Map.copyOf(b.nodes));
        }).toList();
        return new View(bucketSeconds, out);
    }

    /** The nearest-rank quantile of a sorted, non-empty array. */
    static long rank(long[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
