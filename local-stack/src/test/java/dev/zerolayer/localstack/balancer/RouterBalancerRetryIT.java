package dev.zerolayer.localstack.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.localstack.testing.LauncherProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real HAProxy on the balancer's configuration in front of a replica that dies with a request half-read: a POST
 * whose body reaches the balancer after its headers, sent on a kept-alive client connection, is answered by another
 * try rather than the client's connection closed without a byte.
 */
class RouterBalancerRetryIT {

    private static final byte[] BODY = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8,\"messages\":[]}"
            .getBytes(StandardCharsets.UTF_8);

    private Process haproxy;
    private ServerSocket replica;

    @AfterEach
    void stop() throws Exception {
        if (haproxy != null) {
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
        if (replica != null) {
            replica.close();
        }
    }

    @Test
    void aPostWhoseBodyArrivesLateIsRetriedWhenTheReplicaDiesReadingIt(@TempDir Path dir) throws Exception {
        assumeTrue(RouterBalancer.binary().isPresent(), "HAProxy is not installed here");
        // Given a replica that answers every POST but the second, whose connection it resets after reading the
        // request's headers (a router killed while the request reached it), behind the balancer
        replica = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        CountDownLatch secondHeadersRead = new CountDownLatch(1);
        AtomicInteger posts = new AtomicInteger();
        Thread server = new Thread(() -> serve(replica, posts, secondHeadersRead), "fake-replica");
        server.setDaemon(true);
        server.start();
        int port = LauncherProcess.freePort();
        List<String> command = RouterBalancer.command(RouterBalancer.binary().get(), dir, port,
                List.of(replica.getLocalPort()), Duration.ZERO);
        haproxy = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile()).start();

        try (Socket client = connect(port, Duration.ofSeconds(20))) {
            client.setTcpNoDelay(true);
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            // the first request on the connection is answered (so the second is not the connection's first)
            out.write(headers());
            out.write(BODY);
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200");

            // When the second POST's headers go out first and its body follows a moment later (a client that
            // writes them apart, as the JDK's HttpClient does, on a busy machine)
            out.write(headers());
            out.flush();
            // the pause is the stimulus (a slow body), cut short once an unbuffered balancer forwarded the headers
            secondHeadersRead.await(300, TimeUnit.MILLISECONDS);
            out.write(BODY);
            out.flush();

            // Then the balancer tries again and the client gets the third POST's answer, not a closed connection
            String second = readResponse(in);
            assertThat(second).as("balancer log:%n%s", Files.readString(dir.resolve("haproxy.log")))
                    .startsWith("HTTP/1.1 200");
            assertThat(posts.get()).isEqualTo(3);
        }
    }

    private static byte[] headers() {
        return ("POST /v1/messages HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: "
                + BODY.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Connects once the balancer listens. */
    private static Socket connect(int port, Duration limit) {
        return await().atMost(limit).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> new Socket(InetAddress.getLoopbackAddress(), port), Socket::isConnected);
    }

    /** One response with a content-length body, or what arrived before the connection closed. */
    private static String readResponse(InputStream in) throws IOException {
        String head = readHead(in);
        if (head.isEmpty()) {
            return "(the connection closed without a byte)";
        }
        return head + new String(in.readNBytes(contentLength(head)), StandardCharsets.US_ASCII);
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return 0;
    }

    /** Health checks answered 200; POSTs answered 200 except the second, reset after its headers. */
    private static void serve(ServerSocket server, AtomicInteger posts, CountDownLatch secondHeadersRead) {
        while (!server.isClosed()) {
            try (Socket connection = server.accept()) {
                InputStream in = connection.getInputStream();
                String head = readHead(in);
                if (!head.startsWith("POST")) {
                    answer(connection.getOutputStream());
                    continue;
                }
                if (posts.incrementAndGet() == 2) {
                    secondHeadersRead.countDown();
                    connection.setSoLinger(true, 0); // a reset, as the kernel sends for a killed process
                    continue;
                }
                in.readNBytes(contentLength(head));
                answer(connection.getOutputStream());
            } catch (IOException closed) {
                // the test ended or the balancer went away
            }
        }
    }

    /** A message's head up to its blank line, or what arrived before the connection closed. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            if (head.size() >= 4 && head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                break;
            }
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static void answer(OutputStream out) throws IOException {
        out.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
