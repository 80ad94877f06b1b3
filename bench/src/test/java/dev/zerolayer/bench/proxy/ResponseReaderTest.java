package dev.zerolayer.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Responses end where their length or last chunk says, whatever the split; interim and bodiless ones too. */
class ResponseReaderTest {

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Feeds the text one byte at a time; returns the index of the byte that completed the response, or -1. */
    private static int feedByteByByte(ResponseReader reader, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (reader.feed(bytes(text.substring(i, i + 1)))) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aFixedLengthResponseEndsWithItsLastBodyByte() {
        String response = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: application/json\r\n\r\nhello";
        ResponseReader reader = new ResponseReader();
        assertThat(feedByteByByte(reader, response)).isEqualTo(response.length() - 1);
        assertThat(reader.status()).isEqualTo(200);
        assertThat(reader.bodyStarted()).isTrue();
        assertThat(reader.closes()).isFalse();
    }

    @Test
    void aChunkedResponseEndsAfterTheLastChunkAndTrailers() {
        String response = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nevent\r\n10\r\n0123456789abcdef\r\n0\r\nx-trailer: 1\r\n\r\n";
        ResponseReader reader = new ResponseReader();
        assertThat(feedByteByByte(reader, response)).isEqualTo(response.length() - 1);
        ResponseReader whole = new ResponseReader();
        ByteBuffer all = bytes(response + "HTTP/1.1");
        assertThat(whole.feed(all)).isTrue();
        assertThat(all.remaining()).as("bytes after the end stay unread").isEqualTo(8);
    }

    @Test
    void theFirstBodyByteIsSeenBeforeTheEnd() {
        ResponseReader reader = new ResponseReader();
        assertThat(reader.feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"))).isFalse();
        assertThat(reader.bodyStarted()).isFalse();
        assertThat(reader.feed(bytes("3\r\nabc\r\n"))).isFalse();
        assertThat(reader.bodyStarted()).isTrue();
        assertThat(reader.feed(bytes("0\r\n\r\n"))).isTrue();
    }

    @Test
    void interimAndBodilessResponsesAndCloseAreRead() {
        ResponseReader reader = new ResponseReader();
        assertThat(reader.feed(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")))
                .isTrue();
        assertThat(reader.status()).isEqualTo(204);
        assertThat(reader.closes()).isTrue();
        assertThat(reader.bodyStarted()).isFalse();
        reader.reset();
        assertThat(reader.feed(bytes("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n"))).isTrue();
        assertThat(reader.status()).isEqualTo(500);
        assertThat(reader.closes()).isFalse();
    }

    @Test
    void bytesThatAreNoHttpResponseAreRefused() {
        assertThatThrownBy(() -> new ResponseReader().feed(bytes("SSH-2.0-OpenSSH\r\n")))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new ResponseReader().feed(bytes("HTTP/1.1 200 OK\r\n\r\n")))
                .isInstanceOf(IllegalStateException.class);
    }
}
