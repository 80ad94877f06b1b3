package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The upstream pool hands out the most recently used connection: after a burst, steady traffic stays on one or two. */
class UpstreamClientTest {

    private final Set<Integer> burstPorts = ConcurrentHashMap.newKeySet();
    private final Set<Integer> steadyPorts = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean burst = new AtomicBoolean(true);
    private final DisposableServer node = HttpServer.create().host("127.0.0.1").port(0)
            .handle((request, response) -> {
                boolean slow = burst.get();
                (slow ? burstPorts : steadyPorts).add(request.remoteAddress().getPort());
                Mono<String> body = Mono.just("{\"ok\":true}");
                // while the burst lasts, answers are slow, so concurrent requests each need a connection of their own
                return response.sendString(slow ? body.delayElement(Duration.ofMillis(300)) : body);
            })
            .bindNow();

    @AfterEach
    void stop() {
        node.disposeNow();
    }

    @Test
    void steadyTrafficAfterABurstReusesTheMostRecentConnectionInsteadOfCyclingThroughAll() {
        UpstreamClient client = new UpstreamClient(1_000, 1 << 20);
        String url = "http://127.0.0.1:" + node.port() + "/v1/messages";
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);

        // Given a burst of 16 concurrent calls, which opens a connection each
        Flux.range(0, 16).flatMap(i -> client.post(url, body, false, Map.of()).then(), 16)
                .blockLast(Duration.ofSeconds(20));
        assertThat(burstPorts).hasSizeGreaterThanOrEqualTo(8);

        // When 40 calls follow one after another
        burst.set(false);
        for (int i = 0; i < 40; i++) {
            client.post(url, body, false, Map.of()).blockLast(Duration.ofSeconds(10));
        }

        // Then they went over one or two connections (the last burst connection may still be on its way back to the
        // pool as the first call leaves); first-in-first-out cycled through all 16
        assertThat(steadyPorts).hasSizeLessThanOrEqualTo(2);
    }
}
