package dev.zerolayer.complexity.web;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import reactor.core.publisher.Mono;

/** Reads a whole request body into memory, never more than the limit (a larger body fails with 413). */
final class RequestBodies {

    private RequestBodies() {
    }

    static Mono<byte[]> read(ServerHttpRequest request, long limit) {
        long declared = request.getHeaders().getContentLength();
        if (declared > limit) {
            return Mono.error(new BodyTooLargeException(limit));
        }
        int max = (int) Math.min(Integer.MAX_VALUE - 8, limit);
        return DataBufferUtils.join(request.getBody(), max)
                .map(RequestBodies::bytes)
                .defaultIfEmpty(new byte[0])
                .onErrorMap(DataBufferLimitException.class, e -> new BodyTooLargeException(limit));
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
