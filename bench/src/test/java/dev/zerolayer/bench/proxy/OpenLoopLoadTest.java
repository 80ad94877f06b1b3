package dev.zerolayer.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The generator sends every request with its headers and body over a real socket and times what it should. */
class OpenLoopLoadTest {

    /** How long the slow endpoint holds its answer between the first and the last chunk. */
    private static final long HOLD_MILLIS = 300;

    private HttpServer server;
    private final ConcurrentLinkedQueue<String> bodies = new ConcurrentLinkedQueue<>();
    private final AtomicInteger keyed = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/fixed", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            if ("k1".equals(exchange.getRequestHeaders().getFirst("x-api-key"))) {
                keyed.incrementAndGet();
            }
            answer(exchange, 200, "{\"ok\":true}");
        });
        server.createContext("/fail", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, 503, "{\"error\":\"busy\"}");
        });
        server.createContext("/slow-stream", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("data: first\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                // the scenario, not synchronisation: the rest of the stream comes later
                Thread.sleep(HOLD_MILLIS);
                out.write("data: last\n\n".getBytes(StandardCharsets.UTF_8));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    void everyRequestArrivesWithItsHeadersAndBodyAndIsTimed() throws Exception {
        OpenLoopLoad load = new OpenLoopLoad(4);
        OpenLoopLoad.Result result = load.run(new OpenLoopLoad.Target("t", url("/fixed"), Map.of("x-api-key", "k1"),
                "{\"n\":\"é\"}", false), 100, Duration.ofSeconds(1));
        assertThat(result.sent()).isEqualTo(100);
        assertThat(result.ok()).isEqualTo(100);
        assertThat(result.failed()).isZero();
        assertThat(result.latencyMicros().getTotalCount()).isEqualTo(100);
        assertThat(bodies).hasSize(100).allMatch("{\"n\":\"é\"}"::equals);
        assertThat(keyed).hasValue(100);
    }

    @Test
    void answersOtherThan200CountAsFailedAndAreNotTimed() throws Exception {
        OpenLoopLoad.Result result = new OpenLoopLoad(4).run(new OpenLoopLoad.Target("t", url("/fail"), Map.of(),
                "{}", false), 50, Duration.ofSeconds(1));
        assertThat(result.ok()).isZero();
        assertThat(result.failed()).isEqualTo(50);
        assertThat(result.latencyMicros().getTotalCount()).isZero();
    }

    @Test
    void aStreamIsTimedToItsFirstByteAndAWholeBodyToItsEnd() throws Exception {
        OpenLoopLoad load = new OpenLoopLoad(16);
        OpenLoopLoad.Result streaming = load.run(new OpenLoopLoad.Target("s", url("/slow-stream"), Map.of(), "{}",
                true), 10, Duration.ofSeconds(1));
        OpenLoopLoad.Result whole = load.run(new OpenLoopLoad.Target("w", url("/slow-stream"), Map.of(), "{}",
                false), 10, Duration.ofSeconds(1));
        assertThat(streaming.ok()).isEqualTo(10);
        assertThat(whole.ok()).isEqualTo(10);
        assertThat(streaming.latencyMicros().getMaxValue()).as("to the first byte, before the held rest")
                .isLessThan(HOLD_MILLIS * 1_000);
        assertThat(whole.latencyMicros().getMinValue()).as("to the end, after the held rest")
                .isGreaterThanOrEqualTo(HOLD_MILLIS * 1_000);
    }

    @Test
    void requestsBeyondTheConnectionLimitWaitForAFreeConnection() throws Exception {
        OpenLoopLoad.Result result = new OpenLoopLoad(1).run(new OpenLoopLoad.Target("s", url("/slow-stream"),
                Map.of(), "{}", false), 10, Duration.ofMillis(500));
        assertThat(result.ok()).isEqualTo(5);
        assertThat(result.latencyMicros().getMaxValue()).as("the last waited for four answers before it")
                .isGreaterThanOrEqualTo(5 * HOLD_MILLIS * 1_000 - 500_000);
    }
}
