package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.simulator.support.TestNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node tracks open connections, not requests: many requests on one kept-alive connection count once, and a closed
 * connection is forgotten, so a node serving for hours holds nothing per request it served (it used to keep every
 * request's server state: a leak that grew the heap and the GC pauses with the number of requests).
 */
class ConnectionTrackingTest {

    private static final String BODY = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":2,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";

    @Test
    void requestsOnOneConnectionCountOnceAndClosedConnectionsAreForgotten() throws IOException {
        try (TestNode node = TestNode.fast()) {
            URI base = URI.create(node.node().baseUrl());

            // Given one kept-alive connection that carries three requests
            try (Socket kept = new Socket(base.getHost(), base.getPort())) {
                for (int i = 0; i < 3; i++) {
                    assertThat(exchange(kept, false)).startsWith("HTTP/1.1 200");
                }
                // Then the node counts one open connection
                assertThat(node.node().openConnections()).isEqualTo(1);
            }

            // When 200 more connections each carry one request and close
            for (int i = 0; i < 200; i++) {
                try (Socket once = new Socket(base.getHost(), base.getPort())) {
                    assertThat(exchange(once, true)).startsWith("HTTP/1.1 200");
                }
            }

            // Then the node forgets every one of them
            await().atMost(Duration.ofSeconds(10)).until(() -> node.node().openConnections() == 0);
        }
    }

    /** One POST on the socket; with {@code close} the node closes the connection after answering. */
    private static String exchange(Socket socket, boolean close) throws IOException {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        assertThat(in.readNBytes(length)).hasSize(length);
        return headers;
    }
}
