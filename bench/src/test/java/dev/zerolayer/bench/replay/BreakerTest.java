package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.Resilience;
import org.junit.jupiter.api.Test;

class BreakerTest {

    @Test
    void opensAtHalfFailuresAfterTheMinimumCallsThenTriesOnceAfterTheCooldown() {
        Breaker breaker = new Breaker(Resilience.defaults());
        breaker.onSuccess(0);
        breaker.onSuccess(0);
        breaker.onError(0);
        breaker.onError(0);
        assertThat(breaker.open(0)).as("4 calls: below the minimum of 5").isFalse();
        breaker.onError(1);
        assertThat(breaker.open(1)).as("3 of 5 failed").isTrue();
        assertThat(breaker.tryAcquire(5.9)).isFalse();
        assertThat(breaker.state(6.0)).isEqualTo(Breaker.State.HALF_OPEN);
        assertThat(breaker.tryAcquire(6.0)).isTrue();
        assertThat(breaker.tryAcquire(6.0)).as("one trial call").isFalse();
        breaker.onError(6.1);
        assertThat(breaker.open(6.1)).isTrue();
        assertThat(breaker.tryAcquire(11.2)).isTrue();
        breaker.onSuccess(11.3);
        assertThat(breaker.state(11.3)).isEqualTo(Breaker.State.CLOSED);
    }
}
