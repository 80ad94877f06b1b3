package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Span;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** A request a peer replica passed on was counted there: the holder does not count it against the key again. */
class IntakeTest {

    private static final String KEY = "zl-intake-test-key-0123456789";
    private static final String SECRET = "zla-0123456789abcdefghijklmnopqrstuv";
    private static final URI HOLDER = URI.create("http://10.0.0.1:8080");
    private static final URI FRONT = URI.create("http://10.0.0.2:8080");
    private static final int REQUESTS = 50;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final RateLimits oneASecond = new RateLimits(1, new ActivePolicy(new CompactedView<FallbackPolicy>(
            Topics.FALLBACK_POLICY_TOPIC, new EventReader(meters), Clock.systemUTC())), meters);
    private final Intake holder = new Intake(new ApiKeyAuthenticator(KEY), oneASecond, new RequestBodies(1 << 20),
            replica(HOLDER, Clock.systemUTC()));

    @AfterEach
    void close() {
        oneASecond.close();
    }

    private static ResponseItems replica(URI self, Clock clock) {
        return new ResponseItems(10, Duration.ofHours(1), clock, SealedAddress.fromSecret(SECRET),
                () -> Optional.of(self));
    }

    private static Progress.Arrival arrival(String proof) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(ZeroLayerHeaders.API_KEY, KEY);
        headers.set("content-type", "application/json");
        if (proof != null) {
            headers.set(PeerForwarding.PEER_PROOF, proof);
        }
        return new Progress.Arrival(ClientApi.RESPONSES, Progress.Mode.DISPATCH, "req", "trace", Span.NOOP,
                System.nanoTime(), false, false, headers, new InetSocketAddress("127.0.0.1", 40000), null,
                new AtomicBoolean());
    }

    /** How many of {@value #REQUESTS} requests in a row the holder lets in. */
    private int admitted(String proof) {
        int admitted = 0;
        for (int i = 0; i < REQUESTS; i++) {
            try {
                holder.authenticate(arrival(proof));
                admitted++;
            } catch (ApiException e) {
                assertThat(e.status()).isEqualTo(429);
            }
        }
        return admitted;
    }

    @Test
    void requestsAPeerPassedOnAreNotCountedAgain() {
        String proof = replica(FRONT, Clock.systemUTC()).peerProof().orElseThrow();
        assertThat(admitted(proof)).isEqualTo(REQUESTS);
        // the same key's own requests are still limited: one a second (two if a refill falls between them)
        assertThat(admitted(null)).isBetween(1, 2);
    }

    @Test
    void aProofThatIsForgedStaleOrTheHoldersOwnCountsAsNone() {
        String stale = replica(FRONT, Clock.fixed(Instant.now().minus(Duration.ofMinutes(2)), java.time.ZoneOffset.UTC))
                .peerProof().orElseThrow();
        String own = replica(HOLDER, Clock.systemUTC()).peerProof().orElseThrow();
        String foreign = new ResponseItems(10, Duration.ofHours(1), Clock.systemUTC(),
                SealedAddress.fromSecret("zla-vutsrqponmlkjihgfedcba9876543210"), () -> Optional.of(FRONT))
                .peerProof().orElseThrow();
        int admitted = 0;
        for (String proof : new String[] {stale, own, foreign, "router-2", ""}) {
            admitted += admitted(proof);
        }
        // 250 requests counted against one a second: a few refills at most
        assertThat(admitted).isBetween(1, 10);
    }
}
