package dev.zerolayer.complexity.web;

import dev.zerolayer.platform.web.DataBuffers;
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
                .map(DataBuffers::drain)
                .defaultIfEmpty(new byte[0])
                .onErrorMap(DataBufferLimitException.class, e -> new BodyTooLargeException(limit));
    }
}
