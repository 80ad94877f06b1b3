package dev.zerolayer.cache.stats;

import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Clock;
import java.time.Duration;

/**
 * The cache hit ratio over a sliding window: of the decisions that sent a prompt to a node (served, or failed after
 * the first byte), the share whose {@code cacheHit} was true, counted in one-second buckets by the time they were read.
 */
public final class HitRatioWindow {

    private final Clock clock;
    private final int seconds;
    private final long[] bucketSecond;
    private final long[] routed;
    private final long[] hits;

    public HitRatioWindow(Clock clock, Duration window) {
        this.clock = clock;
        this.seconds = (int) Math.max(1, window.toSeconds());
        this.bucketSecond = new long[seconds];
        this.routed = new long[seconds];
        this.hits = new long[seconds];
        java.util.Arrays.fill(bucketSecond, Long.MIN_VALUE);
    }

    /** Counts a decision if it sent a prompt to a node. */
    public synchronized void observe(RoutingDecision decision) {
        if (decision.node() == null || decision.node().isBlank()
                || !(decision.status() == DecisionStatus.OK || decision.status() == DecisionStatus.STREAM_FAILED)) {
            return;
        }
        long second = clock.millis() / 1000;
        int at = (int) Math.floorMod(second, (long) seconds);
        if (bucketSecond[at] != second) {
            bucketSecond[at] = second;
            routed[at] = 0;
            hits[at] = 0;
        }
        routed[at]++;
        if (decision.cacheHit()) {
            hits[at]++;
        }
    }

    /** Decisions counted and hits within the window ending now. */
    public synchronized Window snapshot() {
        long now = clock.millis() / 1000;
        long total = 0;
        long hit = 0;
        for (int i = 0; i < seconds; i++) {
            if (bucketSecond[i] > now - seconds && bucketSecond[i] <= now) {
                total += routed[i];
                hit += hits[i];
            }
        }
        return new Window(seconds, total, hit);
    }

    /** Decisions routed and cache hits in the last {@code seconds}; the ratio is null when nothing was routed. */
    public record Window(int seconds, long routed, long hits) {
        public Double ratio() {
            return routed == 0 ? null : (double) hits / routed;
        }
    }
}
