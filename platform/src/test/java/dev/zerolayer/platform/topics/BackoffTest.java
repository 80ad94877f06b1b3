package dev.zerolayer.platform.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The start-up retry pace doubles from 250 ms and stops growing at the longest pause. */
class BackoffTest {

    @Test
    void doublesFromAQuarterSecondUpToFiveSeconds() {
        Backoff backoff = new Backoff();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(250));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(1000));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(2000));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(4000));
        assertThat(backoff.next()).isEqualTo(Duration.ofSeconds(5));
        assertThat(backoff.next()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aShortLongestPauseIsEveryPause() {
        Backoff backoff = new Backoff(Duration.ofMillis(200));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void theLongestPauseMustBePositive() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
