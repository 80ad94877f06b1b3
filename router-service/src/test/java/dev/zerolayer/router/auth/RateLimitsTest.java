package dev.zerolayer.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.wire.ApiException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A key's part of its limit moves down and up without stopping its limiter's refills; demand is every ask. */
class RateLimitsTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final RateLimits limits = new RateLimits(10, new ActivePolicy(new CompactedView<FallbackPolicy>(
            Topics.FALLBACK_POLICY_TOPIC, new EventReader(meters), Clock.systemUTC())), meters);

    @AfterEach
    void close() {
        limits.close();
    }

    private boolean admitted(String keyId) {
        try {
            limits.acquire(keyId);
            return true;
        } catch (ApiException e) {
            assertThat(e.status()).isEqualTo(429);
            return false;
        }
    }

    @Test
    void aSmallerPartWithPermitsLeftStillRefillsEverySecond() {
        // Given a key that used 1 of its 10 permits this second
        assertThat(admitted("key-1")).isTrue();
        // When its part falls to 2 while 9 are still available
        limits.permit("key-1", 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> limits.permitsOf("key-1").orElse(0) == 2);
        // Then at most 2 are left now, and the limiter keeps refilling: after using them up, permits come back (a
        // refill that found more permits than the new limit would have failed and stopped refilling for good)
        int now = 0;
        while (admitted("key-1")) {
            now++;
        }
        assertThat(now).isLessThanOrEqualTo(2 + 2);
        for (int second = 0; second < 2; second++) {
            await().atMost(Duration.ofSeconds(5)).until(() -> admitted("key-1"));
            while (admitted("key-1")) {
                // use up this second's part
            }
        }
    }

    @Test
    void aPartOfNothingClosesTheKeyAtOnceAndOneOverTheLimitIsTheLimit() {
        assertThat(admitted("key-1")).isTrue();
        limits.permit("key-1", 0);
        assertThat(limits.permitsOf("key-1")).hasValue(0);
        assertThat(admitted("key-1")).as("9 permits left, but the key is closed here").isFalse();
        limits.permit("key-1", 1_000);
        await().atMost(Duration.ofSeconds(5)).until(() -> limits.permitsOf("key-1").orElse(0) == 10);
        await().atMost(Duration.ofSeconds(5)).until(() -> admitted("key-1"));
    }

    @Test
    void aKeyNotAskedHereGetsNoLimiterButItsFirstOneStartsAtItsPart() {
        limits.permit("key-9", 3);
        assertThat(limits.permitsOf("key-9")).hasValue(3);
        assertThat(meters.find("resilience4j.ratelimiter.available.permissions").tag("name", "key-key-9").gauge())
                .isNull();
        int admitted = 0;
        while (admitted("key-9")) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(3);
    }

    @Test
    void everyAskCountsAsDemandAdmittedOrNot() {
        for (int i = 0; i < 25; i++) {
            admitted("key-1");
        }
        admitted("key-2");
        assertThat(limits.drainAsked()).isEqualTo(Map.of("key-1", 25L, "key-2", 1L));
        assertThat(limits.drainAsked()).isEmpty();
    }
}
