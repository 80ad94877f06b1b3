package dev.zerolayer.router.web;

import dev.zerolayer.router.wire.ClientApi;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.NettyPipeline;

/**
 * A request HTTP itself cannot decode (headers past the server's limit, an overlong request line, a malformed request)
 * is answered in the client API's error shape (by its path, as far as it was read) with 431, 414 or 400 and the
 * connection closed, instead of the server's empty response.
 */
@Configuration(proxyBeanMethods = false)
public class DecodeFailures {

    @Bean
    NettyServerCustomizer decodeFailureResponses() {
        return server -> server.doOnChannelInit((observer, channel, address) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, "zerolayer.decodeFailures", new Handler());
            }
        });
    }

    /** Answers the first undecodable request and drops everything after it on the connection. */
    static final class Handler extends ChannelInboundHandlerAdapter {

        private boolean failed;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            if (failed) {
                ReferenceCountUtil.release(message);
                return;
            }
            DecoderResult result = message instanceof HttpObject object ? object.decoderResult() : null;
            if (result == null || !result.isFailure()) {
                ctx.fireChannelRead(message);
                return;
            }
            failed = true;
            String path = message instanceof HttpRequest request ? path(request.uri()) : "/";
            ReferenceCountUtil.release(message);
            Throwable cause = result.cause();
            HttpResponseStatus status;
            String text;
            if (cause instanceof TooLongHttpHeaderException) {
                status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
                text = "request headers are too large";
            } else if (cause instanceof TooLongHttpLineException) {
                status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
                text = "request line is too long";
            } else if (cause instanceof TooLongFrameException) {
                status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
                text = "request headers are too large";
            } else {
                status = HttpResponseStatus.BAD_REQUEST;
                text = "malformed HTTP request";
            }
            byte[] body = ClientApi.forPath(path).errorBody("invalid_request_error", text);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        private static String path(String uri) {
            if (uri == null) {
                return "/";
            }
            int query = uri.indexOf('?');
            return query < 0 ? uri : uri.substring(0, query);
        }
    }
}
