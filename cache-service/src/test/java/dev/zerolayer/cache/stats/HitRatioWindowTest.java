package dev.zerolayer.cache.stats;

import static dev.zerolayer.cache.TestEvents.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.contracts.router.DecisionStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The hit ratio counts routed decisions inside the window only, and has no value when nothing was routed. */
class HitRatioWindowTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final HitRatioWindow window = new HitRatioWindow(clock, Duration.ofSeconds(60));

    @Test
    void countsRoutedDecisionsWithinTheWindow() {
        assertThat(window.snapshot().ratio()).isNull();
        window.observe(decision("s", "a", true, 1));
        window.observe(decision("s", "a", false, 1));
        window.observe(decision("s", null, false, DecisionStatus.OVERLOADED));
        window.observe(decision("s", "a", true, DecisionStatus.EXPLAINED, 1));
        clock.advance(Duration.ofSeconds(30));
        window.observe(decision("s", "a", true, 1));
        window.observe(decision("s", "a", true, DecisionStatus.STREAM_FAILED, 1));
        assertThat(window.snapshot()).isEqualTo(new HitRatioWindow.Window(60, 4, 3));
        assertThat(window.snapshot().ratio()).isEqualTo(0.75);

        clock.advance(Duration.ofSeconds(31)); // the first second left the window
        assertThat(window.snapshot()).isEqualTo(new HitRatioWindow.Window(60, 2, 2));
        clock.advance(Duration.ofMinutes(5));
        assertThat(window.snapshot().routed()).isZero();
    }
}
