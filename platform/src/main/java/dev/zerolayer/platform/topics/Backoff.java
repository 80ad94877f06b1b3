package dev.zerolayer.platform.topics;

import java.time.Duration;

/**
 * The one retry pace of start-up work against the broker: a pause doubling from 250 ms up to a longest pause (5 s
 * unless given); one instance per retry loop.
 */
public final class Backoff {

    static final Duration FIRST_PAUSE = Duration.ofMillis(250);
    public static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private final Duration longest;
    private Duration next;

    public Backoff() {
        this(LONGEST_PAUSE);
    }

    /** @param longest the pause stops growing here (a longest pause under 250 ms is every pause) */
    public Backoff(Duration longest) {
        if (longest == null || longest.isNegative() || longest.isZero()) {
            throw new IllegalArgumentException("the longest pause must be positive, not " + longest);
        }
        this.longest = longest;
        this.next = min(FIRST_PAUSE, longest);
    }

    /** The pause to take now; the one after it is twice as long, up to the longest. */
    public synchronized Duration next() {
        Duration current = next;
        next = min(current.multipliedBy(2), longest);
        return current;
    }

    /** Sleeps for {@link #next()}. */
    public void pause() throws InterruptedException {
        Thread.sleep(next().toMillis());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
