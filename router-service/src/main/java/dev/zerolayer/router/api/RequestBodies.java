package dev.zerolayer.router.api;

import dev.zerolayer.router.wire.ApiException;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Arrays;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;

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

    /** The body's bytes (the server releases each chunk once it has been copied here). */
    Mono<byte[]> read(HttpServerRequest http) {
        long declared = declaredLength(http.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH));
        if (declared > limit * DRAIN_FACTOR) {
            return Mono.error(tooLarge());
        }
        return http.receive()
                .reduce(new Buffer(limit, declared), Buffer::append)
                .flatMap(buffer -> buffer.seen > limit ? Mono.error(tooLarge()) : Mono.just(buffer.bytes()));
    }

    /** A declared Content-Length, or -1 when there is none that reads as one. */
    static long declaredLength(String header) {
        if (header == null) {
            return -1;
        }
        try {
            long length = Long.parseLong(header.strip());
            return length < 0 ? -1 : length;
        } catch (NumberFormatException e) {
            return -1;
        }
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

        Buffer append(ByteBuf chunk) {
            int readable = chunk.readableBytes();
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
            chunk.getBytes(chunk.readerIndex(), bytes, size, readable);
            size += readable;
            return this;
        }

        byte[] bytes() {
            return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        }
    }
}
