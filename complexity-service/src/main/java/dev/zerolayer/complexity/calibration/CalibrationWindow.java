package dev.zerolayer.complexity.calibration;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Decisions of the last {@code window} counted per score band in {@code slots} time slots: a decision is placed by its
 * own time (never later than now), one older than the window is dropped, and a slot leaves the window as a whole once
 * it is older than the window; memory is slots × bands whatever the rate.
 */
public final class CalibrationWindow {

    /** The rule-driven fallback (SPEC §3 rule 4) that no tier threshold changes, so it never counts as movable. */
    public static final String HIGH_COMPLEXITY_FALLBACK = "high_complexity_fallback";

    private final Clock clock;
    private final Duration window;
    private final int bands;
    private final long slotMillis;
    private final long[] slotNumbers;
    private final BandCounts[][] slots;
    private long recorded;

    public CalibrationWindow(Clock clock, Duration window, int slots, int bands) {
        if (window.isZero() || window.isNegative() || slots < 1 || bands < 1) {
            throw new IllegalArgumentException("window, slots and bands must be positive");
        }
        this.clock = clock;
        this.window = window;
        this.bands = bands;
        this.slotMillis = Math.max(1, window.toMillis() / slots);
        this.slotNumbers = new long[slots];
        this.slots = new BandCounts[slots][];
        java.util.Arrays.fill(slotNumbers, Long.MIN_VALUE);
    }

    public int bands() {
        return bands;
    }

    public Duration window() {
        return window;
    }

    /** The band of a score in [0,1] (1.0 falls in the last band). */
    public int band(double score) {
        return Math.min(bands - 1, Math.max(0, (int) Math.floor(score * bands)));
    }

    /** Counts one decision; returns false when it is older than the window or its score is not a number. */
    public synchronized boolean record(Observation observation) {
        if (!Double.isFinite(observation.score())) {
            return false;
        }
        Instant now = clock.instant();
        Instant at = observation.at() == null || observation.at().isAfter(now) ? now : observation.at();
        long nowSlot = Math.floorDiv(now.toEpochMilli(), slotMillis);
        long slot = Math.floorDiv(at.toEpochMilli(), slotMillis);
        if (slot <= nowSlot - slotNumbers.length || at.isBefore(now.minus(window))) {
            return false;
        }
        int index = (int) Math.floorMod(slot, (long) slotNumbers.length);
        if (slotNumbers[index] != slot) {
            slotNumbers[index] = slot;
            slots[index] = new BandCounts[bands];
        }
        int band = band(Math.max(0, Math.min(1, observation.score())));
        if (slots[index][band] == null) {
            slots[index][band] = new BandCounts();
        }
        boolean movable = !observation.pinned() && !HIGH_COMPLEXITY_FALLBACK.equals(observation.fallbackReason());
        slots[index][band].add(observation, movable);
        recorded++;
        return true;
    }

    /** Decisions recorded since start (a change tells that a snapshot is stale). */
    public synchronized long recorded() {
        return recorded;
    }

    /** The counts per band over the slots still inside the window. */
    public synchronized BandCounts[] snapshot() {
        long nowSlot = Math.floorDiv(clock.instant().toEpochMilli(), slotMillis);
        BandCounts[] merged = new BandCounts[bands];
        for (int b = 0; b < bands; b++) {
            merged[b] = new BandCounts();
        }
        for (int i = 0; i < slotNumbers.length; i++) {
            if (slots[i] == null || slotNumbers[i] <= nowSlot - slotNumbers.length) {
                continue;
            }
            for (int b = 0; b < bands; b++) {
                if (slots[i][b] != null) {
                    merged[b].addAll(slots[i][b]);
                }
            }
        }
        return merged;
    }
}
