package dev.zerolayer.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FloorProxyTest {

    @Test
    void passesRequestsAndAnswersThroughAsTheNodeSentThem() throws Exception {
        // Given a node that answers each POST with its body echoed in an event stream, and the floor proxy before it
        List<String> seen = new ArrayList<>();
        HttpServer node = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        node.createContext("/v1/messages", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (seen) {
                seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("x-api-key") + " "
                        + body);
            }
            byte[] answer = ("data: " + body + "\n\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        node.start();
        try (FloorProxy proxy = new FloorProxy("127.0.0.1", node.getAddress().getPort())) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

            // When a client sends two requests through it, one after the other
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (String body : List.of("{\"n\":1}", "{\"n\":2}")) {
                answers.add(client.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + proxy.port() + "/v1/messages"))
                        .timeout(Duration.ofSeconds(10)).header("x-api-key", "k")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }

            // Then the node got both as sent, and the client both answers as the node sent them
            assertThat(seen).containsExactly("POST k {\"n\":1}", "POST k {\"n\":2}");
            assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(200, 200);
            assertThat(answers).extracting(HttpResponse::body)
                    .containsExactly("data: {\"n\":1}\n\n", "data: {\"n\":2}\n\n");
            assertThat(answers.get(1).headers().firstValue("content-type")).hasValue("text/event-stream");
        } finally {
            node.stop(0);
        }
    }

    @Test
    void theLoopsAreChargedEveryFloorProxyThreadGroupAndNothingElse() {
        // Given a window's thread groups: the proxy's loops under two name shapes, and the load's own threads
        Map<String, long[]> groups = Map.of(FloorProxy.THREADS + "-#-#", new long[] {30, 100, 2},
                FloorProxy.THREADS + "-#", new long[] {5, 10, 1}, "open-loop-io", new long[] {70, 900, 9});

        // When the loops' share is taken, Then it is the two proxy groups' sums
        assertThat(FloorProxyRun.loopDeltas(groups)).containsExactly(35, 110, 3);
        // and a window without the proxy's threads is an error, not a proxy that cost nothing
        assertThatThrownBy(() -> FloorProxyRun.loopDeltas(Map.of("open-loop-io", new long[3])))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(FloorProxy.THREADS);
    }
}
