package dev.zerolayer.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.router.KeyDemand;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.wire.ApiException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

/** A key's limit split between this replica and its peers by demand, restored when the peers stop asking. */
class KeyDemandExchangeTest {

    private static final Duration PERIOD = Duration.ofMillis(250);
    private static final int LIMIT = 40;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-04T20:00:00Z"));
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final EventReader reader = new EventReader(meters);
    private final RateLimits limits = new RateLimits(LIMIT, new ActivePolicy(new CompactedView<FallbackPolicy>(
            Topics.FALLBACK_POLICY_TOPIC, reader, clock)), meters);
    private final PeerDemand peers = new PeerDemand(reader, "router-a", Duration.ofSeconds(1), clock);
    // no broker here: publishing fails and is counted; what this replica takes is the point
    private final KeyDemandExchange exchange = new KeyDemandExchange(limits, peers, () -> {
        throw new IllegalStateException("no broker in this test");
    }, Topics.ROUTER_KEY_DEMAND, "router-a", PERIOD, Duration.ofSeconds(1), clock, meters);

    @AfterEach
    void close() {
        limits.close();
    }

    private void ask(String keyId, int requests) {
        for (int i = 0; i < requests; i++) {
            try {
                limits.acquire(keyId);
            } catch (ApiException e) {
                assertThat(e.status()).isEqualTo(429);
            }
        }
    }

    private void peerAsked(String replica, String keyId, long requests) {
        KeyDemand demand = new KeyDemand("evt-" + replica, clock.instant(), 1, replica, PERIOD.toMillis(),
                Map.of(keyId, requests));
        peers.accept(MessageBuilder.withPayload(EventCodec.encode(demand))
                .setHeader(KafkaHeaders.RECEIVED_KEY, replica.getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.ROUTER_KEY_DEMAND).build());
    }

    /** The part is set on the limiter's refill thread: awaited. */
    private void permits(String keyId, int expected) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(limits.permitsOf(keyId))
                .hasValue(expected));
    }

    @Test
    void aKeyAskedOnlyHereKeepsItsWholeLimitWhileAnotherIsShared() {
        ask("key-1", 100);
        ask("key-2", 100);
        peerAsked("router-b", "key-2", 100);
        exchange.tick();
        permits("key-2", LIMIT / 2);
        permits("key-1", LIMIT);
        assertThat(meters.counter("zerolayer_router_key_demand_unsent").count()).isEqualTo(1);
    }

    @Test
    void aLimitSmallerThanTheReplicasAskingHoldsOnAverage() {
        // Given a key allowed 1 request a second, asked far more at this replica and at a peer
        RateLimits one = new RateLimits(1, new ActivePolicy(new CompactedView<FallbackPolicy>(
                Topics.FALLBACK_POLICY_TOPIC, reader, clock)), meters);
        try {
            KeyDemandExchange pair = new KeyDemandExchange(one, peers, () -> {
                throw new IllegalStateException("no broker in this test");
            }, Topics.ROUTER_KEY_DEMAND, "router-a", PERIOD, Duration.ofSeconds(1), clock, meters);
            int open = 0;
            for (int tick = 0; tick < 400; tick++) {
                for (int i = 0; i < 10; i++) {
                    try {
                        one.acquire("key-1");
                    } catch (ApiException e) {
                        assertThat(e.status()).isEqualTo(429);
                    }
                }
                peerAsked("router-b", "key-1", 10);
                pair.tick();
                open += one.permitsOf("key-1").orElseThrow() > 0 ? 1 : 0;
            }
            // Then this replica's part is half the limit: the key is open here about half the periods, not always
            assertThat(open).isBetween(140, 260);
        } finally {
            one.close();
        }
    }

    @Test
    void twoReplicasOverTheLimitSplitItAndThePartComesBackWhenThePeerStops() {
        // Given this replica and a peer each asked for far more than the key's limit in the last period
        ask("key-1", 100);
        peerAsked("router-b", "key-1", 100);
        // When the period ends
        exchange.tick();
        // Then this replica gives the key half its limit
        permits("key-1", LIMIT / 2);

        // its own record does not count as a peer's
        peerAsked("router-a", "key-1", 1_000);
        assertThat(peers.peers()).isEqualTo(1);

        // once the peer's demand is older than the window, the whole limit is back
        clock.advance(Duration.ofMillis(1_500));
        ask("key-1", 100);
        exchange.tick();
        permits("key-1", LIMIT);
    }

    @Test
    void aModestPeerKeepsWhatItAsksAndTheRestIsThisReplicas() {
        ask("key-1", 100);
        // the peer asks 2 in 250 ms: 8 a second of the 40
        peerAsked("router-b", "key-1", 2);
        exchange.tick();
        permits("key-1", LIMIT - 8);
    }

    @Test
    void aKeyOnlyPeersAskForGetsAnEqualPartHereSoItsFirstRequestsAreNotRefused() {
        peerAsked("router-b", "key-2", 100);
        peerAsked("router-c", "key-2", 100);
        exchange.tick();
        // three replicas asked for it or may be: a third each at least
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(limits.permitsOf("key-2").orElse(0))
                .isBetween(LIMIT / 3, LIMIT / 3 + 1));
    }
}
