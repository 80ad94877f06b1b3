package dev.zerolayer.platform.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.web.ApiErrorWebHandler;
import dev.zerolayer.platform.web.ApiException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A follower's filter against real servers over real sockets: a stand-in leader that answers, one that never answers,
 * one that breaks off mid-answer, and a closed port. What the client gets is the leader's answer, or the follower's
 * own refusal when nothing reached a leader, or a 502 / 504 saying to read back when something may have.
 */
class LeaderForwardingIT {

    private static final String FOLLOWER = "replica-b";
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicInteger leaderCalls = new AtomicInteger();
    private final List<AutoCloseable> open = new ArrayList<>();
    private DisposableServer leader;

    @BeforeEach
    void leader() {
        // the stand-in leader: echoes what it got, and who passed it on, with an ETag
        leader = HttpServer.create().host("127.0.0.1").port(0).route(routes -> routes
                .put("/v1/thing", (request, response) -> request.receive().aggregate().asString()
                        .flatMap(body -> {
                            leaderCalls.incrementAndGet();
                            return response.status(200).header("ETag", "\"7\"")
                                    .header("Content-Type", "application/json")
                                    .sendString(Mono.just("{\"got\":" + body + ",\"from\":\""
                                            + request.requestHeaders().get(LeaderForwarding.FORWARDED_FROM) + "\"}"))
                                    .then();
                        }))
                .put("/v1/hang", (request, response) -> {
                    leaderCalls.incrementAndGet();
                    return Mono.never();
                }))
                .bindNow();
        open.add(leader::disposeNow);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : open) {
            closeable.close();
        }
    }

    @Test
    void aWriteReachesTheLeaderOnceAndItsAnswerComesBackUnchanged() throws Exception {
        String follower = follower(() -> Mono.just(announced("replica-a", leaderUrl())), Duration.ofSeconds(10));

        HttpResponse<String> answer = put(follower + "/v1/thing", "{\"x\":1}");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"got\":{\"x\":1},\"from\":\"" + FOLLOWER + "\"}");
        assertThat(answer.headers().firstValue("ETag")).hasValue("\"7\"");
        assertThat(answer.headers().firstValue(LeaderForwarding.ANSWERED_BY)).hasValue("replica-a");
        assertThat(leaderCalls).hasValue(1);
    }

    @Test
    void withNoLeaderKnownOrOneThatRefusesTheConnectionTheFollowerAnswersItself() throws Exception {
        String none = follower(Mono::empty, Duration.ofSeconds(10));
        URI closedPort = URI.create("http://127.0.0.1:" + closedPort());
        String closed = follower(() -> Mono.just(announced("replica-a", closedPort)), Duration.ofSeconds(10));

        HttpResponse<String> unknown = put(none + "/v1/thing", "{}");
        HttpResponse<String> refused = put(closed + "/v1/thing", "{\"x\":2}");

        assertThat(unknown.statusCode()).isEqualTo(503);
        assertThat(unknown.headers().firstValue("Retry-After")).hasValue("1");
        // the body was not consumed by the attempt: the follower's own handler still read it
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("local handler read {\\\"x\\\":2}"); // JSON-escaped
    }

    @Test
    void aRequestAlreadyPassedOnIsNeverPassedOnAgain() throws Exception {
        String follower = follower(() -> Mono.just(announced("replica-a", leaderUrl())), Duration.ofSeconds(10));

        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(follower + "/v1/thing"))
                .header(LeaderForwarding.FORWARDED_FROM, "replica-c").PUT(HttpRequest.BodyPublishers.ofString("{}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(leaderCalls).hasValue(0);
    }

    @Test
    void anAnswerBrokenOffMidWayIsA502SayingToReadBack() throws Exception {
        URI breaking = breakingLeader();
        String follower = follower(() -> Mono.just(announced("replica-a", breaking)), Duration.ofSeconds(10));

        HttpResponse<String> answer = put(follower + "/v1/thing", "{}");

        assertThat(answer.statusCode()).isEqualTo(502);
        assertThat(answer.headers().firstValue("ETag")).isEmpty();
        assertThat(answer.body()).contains("\"type\":\"api_error\"").contains("read the thing back");
    }

    @Test
    void aLeaderThatNeverAnswersIsA504AtTheLimit() throws Exception {
        String follower = follower(() -> Mono.just(announced("replica-a", leaderUrl())), Duration.ofSeconds(1));

        HttpResponse<String> answer = put(follower + "/v1/hang", "{}");

        assertThat(answer.statusCode()).isEqualTo(504);
        assertThat(answer.body()).contains("did not answer within 1000 ms").contains("read the thing back");
    }

    @Test
    void aTermThatMovesWhileTheLeaderHoldsTheWriteIsA504BeforeTheLimit() throws Exception {
        // the first lookup names replica-a; every later one (the term checks) names replica-c
        AtomicInteger lookups = new AtomicInteger();
        String follower = follower(() -> Mono.fromSupplier(() -> lookups.getAndIncrement() == 0
                ? announced("replica-a", leaderUrl()) : announced("replica-c", leaderUrl())), Duration.ofSeconds(60));

        HttpResponse<String> answer = put(follower + "/v1/hang", "{}");

        assertThat(answer.statusCode()).isEqualTo(504);
        assertThat(answer.body()).contains("lost its term before it answered").contains("read the thing back");
        assertThat(leaderCalls).hasValue(1);
    }

    private static LeaderAnnouncement announced(String replica, URI url) {
        return new LeaderAnnouncement(3, replica, url);
    }

    private URI leaderUrl() {
        return URI.create("http://127.0.0.1:" + leader.port());
    }

    /** A follower: the filter in front of a handler that refuses as a follower does, after reading the body. */
    private String follower(Supplier<Mono<LeaderAnnouncement>> lookup, Duration timeout) {
        ZeroLayerProperties properties = new ZeroLayerProperties("fallback-service", true, (short) 1,
                Duration.ofSeconds(1), "", "", null, FOLLOWER, Duration.ofSeconds(6), "", timeout);
        Leadership notLeading = new Leadership("forwarding-it.leader", "forwarding-it", FOLLOWER, Optional::empty,
                new TopicGuard(properties, "127.0.0.1:1", () -> { }), Duration.ofSeconds(6), Clock.systemUTC());
        LeaderForwarding filter = new LeaderForwarding(LeaderWrites.of("the thing",
                LeaderWrites.Route.of(HttpMethod.PUT, "/v1/{name}")), notLeading, lookup, WebClient.create(), timeout,
                new SimpleMeterRegistry());
        var handler = WebHttpHandlerBuilder.webHandler(exchange -> exchange.getRequest().getBody().collectList()
                        .flatMap(buffers -> {
                            StringBuilder body = new StringBuilder();
                            buffers.forEach(b -> body.append(b.toString(StandardCharsets.UTF_8)));
                            ApiException refusal = Leadership.notWriting("the thing");
                            return Mono.error(ApiException.retryAfter(503, refusal.getMessage()
                                    + "; local handler read " + body, 1));
                        }))
                .filter(filter).exceptionHandler(new ApiErrorWebHandler()).build();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
        open.add(server::disposeNow);
        return "http://127.0.0.1:" + server.port();
    }

    /** A leader that sends its status, headers and part of its body, then closes the connection. */
    private URI breakingLeader() throws IOException {
        ServerSocket socket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        open.add(socket);
        Thread thread = new Thread(() -> {
            try (Socket connection = socket.accept()) {
                InputStream in = connection.getInputStream();
                byte[] buffer = new byte[8192];
                String seen = "";
                while (!seen.contains("\r\n\r\n")) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    seen += new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                }
                OutputStream out = connection.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"8\"\r\nContent-Length: 100\r\n"
                        + "\r\n{\"partial\":").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                // the test's assertions tell what the follower made of it
            }
        }, "breaking-leader");
        thread.setDaemon(true);
        thread.start();
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private HttpResponse<String> put(String url, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
