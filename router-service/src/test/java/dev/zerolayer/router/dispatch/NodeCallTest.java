package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.netty.resources.LoopResources;
import reactor.test.StepVerifier;

/**
 * The client's own node connections against a node written on plain sockets: what is sent, how each way an answer
 * can end is reported, a stale kept-alive connection replaced, a cancelled call's connection closed, and reading under
 * a subscriber's small demand.
 */
class NodeCallTest {

    private static final byte[] BODY = "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8);

    /** One loop, so that every call (made off it) goes over that loop's pool. */
    private final LoopResources loops = LoopResources.create("node-call-test", 1, true);
    private final UpstreamClient client = new UpstreamClient(1_000, 64 * 1024, new EventLoops(loops));
    private RawNode node;

    @AfterEach
    void stop() throws IOException {
        if (node != null) {
            node.close();
        }
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(10));
    }

    @Test
    void sendsThePostWithItsBodyHostTypesAndTheGivenHeadersRepeatedAsGiven() throws Exception {
        node = new RawNode((socket, index) -> {
            RawNode.Request request = RawNode.read(socket.getInputStream());
            node.requests.complete(request);
            RawNode.answer(socket.getOutputStream(), 200, "data: ok\n\n", true);
        });

        byte[] answer = client.post(node.url(), BODY,
                        List.of(Map.entry("x-extra", "one"), Map.entry("x-extra", "two")))
                .collectList().map(Dispatcher::concat).block(Duration.ofSeconds(10));

        RawNode.Request sent = node.requests.get(10, TimeUnit.SECONDS);
        assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo("data: ok\n\n");
        assertThat(sent.line()).isEqualTo("POST /v1/messages?beta=true HTTP/1.1");
        assertThat(sent.head()).contains("host: 127.0.0.1:" + node.port(), "content-type: application/json",
                "accept: text/event-stream", "content-length: " + BODY.length, "x-extra: one", "x-extra: two");
        assertThat(sent.body()).isEqualTo(BODY);
    }

    @Test
    void aHeaderValueThatIsNotHttpFailsTheCallWithoutSendingIt() throws Exception {
        node = new RawNode((socket, index) -> {
            node.requests.complete(RawNode.read(socket.getInputStream()));
            RawNode.answer(socket.getOutputStream(), 200, "data: ok\n\n", true);
        });

        assertFailsWith(client.post(node.url(), BODY, List.of(Map.entry("x-extra", "a\r\nx-injected: 1"))),
                "upstream_io_error");
        assertThat(node.requests).isNotDone();
    }

    @Test
    void aNon2xxAnswerFailsWithItsStatusAndBody() throws Exception {
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            RawNode.answer(socket.getOutputStream(), 503, "{\"error\":\"busy\"}", true);
        });

        assertThatThrownBy(() -> client.post(node.url(), BODY, List.of()).blockLast(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(UpstreamFailure.class, failure -> {
                    assertThat(failure.status()).isEqualTo(503);
                    assertThat(new String(failure.body(), StandardCharsets.UTF_8)).isEqualTo("{\"error\":\"busy\"}");
                });
    }

    @Test
    void aRefusedConnectionFailsAsConnectFailed() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }

        assertFailsWith(client.post("http://127.0.0.1:" + port + "/v1/messages", BODY, List.of()),
                "upstream_connect_failed");
    }

    @Test
    void aKeptAliveConnectionTheNodeClosesAsTheNextRequestArrivesIsReplacedOnce() throws Exception {
        // Given a node that answers the first request of a connection, then closes it when a second one comes
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            RawNode.answer(socket.getOutputStream(), 200, "data: first\n\n", true);
            RawNode.read(socket.getInputStream());
            socket.close();
        });
        assertThat(client.post(node.url(), BODY, List.of()).blockLast(Duration.ofSeconds(10))).isNotNull();

        // When a second call comes (the pooled connection is the one the node will close)
        byte[] second = client.post(node.url(), BODY, List.of()).blockLast(Duration.ofSeconds(10));

        // Then it was answered, over a new connection
        assertThat(new String(second, StandardCharsets.UTF_8)).isEqualTo("data: first\n\n");
        assertThat(node.accepted.get()).isEqualTo(2);
    }

    @Test
    void aNewConnectionClosedBeforeAnyAnswerFailsTheCallWithoutTryingAgain() throws Exception {
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            socket.close();
        });

        assertFailsWith(client.post(node.url(), BODY, List.of()), "upstream_io_error");
        assertThat(node.accepted.get()).isEqualTo(1);
    }

    @Test
    void anAnswerCutShortOfItsDeclaredLengthFailsAsAnIoError() throws Exception {
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            RawNode.write(socket.getOutputStream(), "HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\ndata: par");
        });

        assertFailsWith(client.post(node.url(), BODY, List.of()), "upstream_io_error");
    }

    @Test
    void anAnswerWithoutALengthIsReadUntilTheNodeClosesAndItsConnectionIsNotKept() throws Exception {
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            RawNode.write(socket.getOutputStream(), "HTTP/1.1 200 OK\r\nconnection: close\r\n\r\ndata: all of it\n\n");
        });

        for (int i = 0; i < 2; i++) {
            byte[] answer = client.post(node.url(), BODY, List.of()).collectList().map(Dispatcher::concat)
                    .block(Duration.ofSeconds(10));
            assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo("data: all of it\n\n");
        }
        assertThat(node.accepted.get()).isEqualTo(2);
    }

    @Test
    void anUnusableNodeUrlFailsTheAttemptInsteadOfThrowing() {
        assertFailsWith(client.post("http://node:8000/v1 /messages", BODY, List.of()), "upstream_io_error");
    }

    @Test
    void aCallCancelledMidAnswerClosesItsConnection() throws Exception {
        // Given a node that streams one chunk and then waits for more than the client will read
        CompletableFuture<Integer> closedByClient = new CompletableFuture<>();
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            RawNode.write(socket.getOutputStream(), "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    + "transfer-encoding: chunked\r\n\r\n9\r\ndata: a\n\n\r\n");
            closedByClient.complete(socket.getInputStream().read());
        });

        // When the caller takes the first chunk and cancels
        StepVerifier.create(client.post(node.url(), BODY, List.of()).take(1))
                .expectNextMatches(bytes -> new String(bytes, StandardCharsets.UTF_8).equals("data: a\n\n"))
                .verifyComplete();

        // Then the node sees its connection closed (end of stream)
        assertThat(closedByClient.get(10, TimeUnit.SECONDS)).isEqualTo(-1);
    }

    @Test
    void aSubscriberAskingForTwoChunksAtATimeGetsTheWholeAnswerInOrder() throws Exception {
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            expected.append("data: {\"i\":").append(i).append("}\n\n");
        }
        node = new RawNode((socket, index) -> {
            RawNode.read(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 400; i++) {
                byte[] event = ("data: {\"i\":" + i + "}\n\n").getBytes(StandardCharsets.UTF_8);
                out.write((Integer.toHexString(event.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(event);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            RawNode.read(socket.getInputStream());
        });

        byte[] answer = client.post(node.url(), BODY, List.of()).limitRate(2).collectList().map(Dispatcher::concat)
                .block(Duration.ofSeconds(10));

        assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    }

    /** The call fails with an {@link UpstreamFailure} of this reason (and does not hang). */
    private static void assertFailsWith(Flux<byte[]> call, String reason) {
        assertThatThrownBy(() -> call.blockLast(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(UpstreamFailure.class,
                        failure -> assertThat(failure.reason()).isEqualTo(reason));
    }

    /** A node on plain sockets: each accepted connection is served by the script on a thread of its own. */
    private static final class RawNode implements AutoCloseable {

        interface Script {
            void serve(Socket socket, int index) throws IOException;
        }

        record Request(String line, String head, byte[] body) {
        }

        final AtomicInteger accepted = new AtomicInteger();
        final CompletableFuture<Request> requests = new CompletableFuture<>();
        private final ServerSocket server;

        RawNode(Script script) throws IOException {
            server = new ServerSocket(0);
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        int index = accepted.incrementAndGet();
                        Thread serving = new Thread(() -> {
                            try (socket) {
                                script.serve(socket, index);
                            } catch (IOException e) {
                                // the client went away: nothing more to serve
                            }
                        });
                        serving.setDaemon(true);
                        serving.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        String url() {
            return "http://127.0.0.1:" + port() + "/v1/messages?beta=true";
        }

        /** Reads one request (head, then a body of its content-length); null at the end of the stream. */
        static Request read(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            String text = head.toString(StandardCharsets.US_ASCII);
            String lower = text.toLowerCase(Locale.ROOT);
            int length = 0;
            for (String line : lower.split("\r\n")) {
                if (line.startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            byte[] body = in.readNBytes(length);
            return new Request(text.substring(0, text.indexOf("\r\n")), lower, body);
        }

        /** Writes text as it is (ASCII) and flushes it. */
        static void write(OutputStream out, String ascii) throws IOException {
            out.write(ascii.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        static void answer(OutputStream out, int status, String body, boolean keepAlive) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("HTTP/1.1 " + status + " X\r\ncontent-type: text/event-stream\r\ncontent-length: "
                    + bytes.length + "\r\n" + (keepAlive ? "" : "connection: close\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
