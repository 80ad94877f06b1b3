package dev.zerolayer.fallback.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Per-second buckets: the window sums the last N seconds, reuses old buckets, and keeps what fits when resized. */
class SlidingWindowTest {

    @Test
    void sumsTheSecondsInsideTheWindowOnly() {
        SlidingWindow window = new SlidingWindow(300);
        window.add(1_000, 10, 1);
        window.add(1_150, 10, 2);
        window.add(1_299, 5, 0);

        assertThat(window.sum(1_299)).isEqualTo(new SlidingWindow.Counts(25, 3));
        // at 1_300 the second 1_000 has left the window (1_000, 1_300]
        assertThat(window.sum(1_300)).isEqualTo(new SlidingWindow.Counts(15, 2));
        assertThat(window.sum(1_600)).isEqualTo(new SlidingWindow.Counts(0, 0));
        assertThat(window.sum(1_300).rate()).isEqualTo(2.0 / 15);
    }

    @Test
    void aBucketIsReusedForANewSecondAndAnOlderSecondNeverOverwritesIt() {
        SlidingWindow window = new SlidingWindow(10);
        window.add(5, 3, 3);
        window.add(15, 1, 0);       // same bucket, newer second: replaces
        window.add(5, 7, 7);        // the older second comes late: dropped
        assertThat(window.sum(15)).isEqualTo(new SlidingWindow.Counts(1, 0));
    }

    @Test
    void resizingKeepsTheSecondsStillInsideTheNewWindow() {
        SlidingWindow window = new SlidingWindow(300);
        window.add(1_000, 10, 5);
        window.add(1_250, 10, 1);
        window.resize(60, 1_260);
        assertThat(window.size()).isEqualTo(60);
        assertThat(window.sum(1_260)).isEqualTo(new SlidingWindow.Counts(10, 1));
    }
}
