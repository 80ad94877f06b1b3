package dev.zerolayer.fallback.monitor;

/**
 * Decisions and fallbacks per second in a ring of one bucket per second of the window, so memory is fixed whatever the
 * traffic: a bucket is reused once its second has left the window.
 */
public final class SlidingWindow {

    private long[] seconds;
    private long[] decisions;
    private long[] fallbacks;

    public SlidingWindow(int windowSeconds) {
        allocate(windowSeconds);
    }

    /** The sums over the window. */
    public record Counts(long decisions, long fallbacks) {

        public double rate() {
            return decisions == 0 ? 0 : Math.min(1.0, (double) fallbacks / decisions);
        }
    }

    public int size() {
        return seconds.length;
    }

    /** Counts at {@code epochSecond}; a second already left behind by a newer one in its bucket is dropped. */
    public void add(long epochSecond, long decisionCount, long fallbackCount) {
        int i = index(epochSecond);
        if (seconds[i] != epochSecond) {
            if (seconds[i] > epochSecond) {
                return;
            }
            seconds[i] = epochSecond;
            decisions[i] = 0;
            fallbacks[i] = 0;
        }
        decisions[i] += decisionCount;
        fallbacks[i] += fallbackCount;
    }

    /** Sums over the seconds in {@code (nowSecond - size, nowSecond]}. */
    public Counts sum(long nowSecond) {
        long d = 0;
        long f = 0;
        long oldest = nowSecond - seconds.length;
        for (int i = 0; i < seconds.length; i++) {
            if (seconds[i] > oldest && seconds[i] <= nowSecond) {
                d += decisions[i];
                f += fallbacks[i];
            }
        }
        return new Counts(d, f);
    }

    /** A window of another length holding the seconds of this one that are still inside it. */
    public void resize(int windowSeconds, long nowSecond) {
        long[] oldSeconds = seconds;
        long[] oldDecisions = decisions;
        long[] oldFallbacks = fallbacks;
        allocate(windowSeconds);
        for (int i = 0; i < oldSeconds.length; i++) {
            if (oldSeconds[i] > nowSecond - windowSeconds && oldSeconds[i] <= nowSecond) {
                add(oldSeconds[i], oldDecisions[i], oldFallbacks[i]);
            }
        }
    }

    private void allocate(int windowSeconds) {
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("windowSeconds must be >= 1");
        }
        seconds = new long[windowSeconds];
        java.util.Arrays.fill(seconds, Long.MIN_VALUE);
        decisions = new long[windowSeconds];
        fallbacks = new long[windowSeconds];
    }

    private int index(long epochSecond) {
        return (int) Math.floorMod(epochSecond, (long) seconds.length);
    }
}
