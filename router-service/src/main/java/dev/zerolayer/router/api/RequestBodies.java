package dev.zerolayer.router.api;

import dev.zerolayer.router.wire.ApiException;
import java.util.Arrays;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Reads a client body up to the limit. A larger one is read on and dropped, up to {@link #DRAIN_FACTOR} times the
 * limit, so the client, still sending, gets a 413 it can read rather than a reset connection; past that (or a declared
 * length past it) the 413 goes at once and the connection closes.
 */
final class RequestBodies {

    /** How much of an oversized body is read and dropped, in multiples of the limit. */
    static final int DRAIN_FACTOR = 2;

    private final long limit;

    RequestBodies(long limit) {
        this.limit = limit;
    }

    Mono<byte[]> read(ServerRequest http) {
        long declared = http.headers().contentLength().orElse(-1);
        if (declared > limit * DRAIN_FACTOR) {
            return Mono.error(tooLarge());
        }
        return http.body(BodyExtractors.toDataBuffers())
                .reduce(new Buffer(limit, declared), (buffer, chunk) -> {
                    try {
                        return buffer.append(chunk);
                    } finally {
                        DataBufferUtils.release(chunk);
                    }
                })
                .flatMap(buffer -> buffer.seen > limit ? Mono.error(tooLarge()) : Mono.just(buffer.bytes()));
    }

    private ApiException tooLarge() {
        return new ApiException(413, "request_too_large", "request body exceeds " + limit + " bytes");
    }

    /** A body's bytes up to the limit, and how many were seen (past the limit they are dropped). */
    private final class Buffer {
        private byte[] bytes;
        private int size;
        private long seen;

        Buffer(long limit, long declared) {
            bytes = new byte[(int) Math.max(256, Math.min(limit, declared < 0 ? 8192 : declared))];
        }

        Buffer append(DataBuffer chunk) {
            int readable = chunk.readableByteCount();
            seen += readable;
            if (seen > limit * DRAIN_FACTOR) {
                throw tooLarge();
            }
            if (seen > limit) {
                return this;
            }
            if (size + readable > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(bytes.length * 2L, (long) size + readable)));
            }
            chunk.read(bytes, size, readable);
            size += readable;
            return this;
        }

        byte[] bytes() {
            return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        }
    }
}
