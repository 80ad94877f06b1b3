package dev.zerolayer.router.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;

/**
 * What the gateway answers a client: a status, headers and a body (one buffer with its length, or a stream of chunks),
 * written to the server's response once every stage has run.
 */
record Reply(int status, HttpHeaders headers, Publisher<? extends ByteBuf> body) {

    /** A JSON answer in one buffer, its length declared. */
    static Reply json(int status, byte[] bytes) {
        HttpHeaders headers = new DefaultHttpHeaders();
        headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        return new Reply(status, headers, Mono.just(Unpooled.wrappedBuffer(bytes)));
    }

    /**
     * Writes it. A stream's status and headers go when its first chunk (or its end) has come, so the stages may still
     * change them until then: the route once a node answers, an error's status when none does.
     */
    Mono<Void> writeTo(HttpServerResponse response) {
        response.status(HttpResponseStatus.valueOf(status));
        // added to the server's own (a stream is sent chunked unless its length is given)
        response.responseHeaders().add(headers);
        if (body instanceof Mono<? extends ByteBuf> whole) {
            if (headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                response.responseHeaders().remove(HttpHeaderNames.TRANSFER_ENCODING);
            }
            return response.send(whole).then();
        }
        return Flux.from(body).switchOnFirst((first, chunks) -> response.send(chunks).then()).then();
    }
}
