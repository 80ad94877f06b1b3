package dev.zerolayer.router.dispatch;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * One POST to a node for each subscriber, over a connection of the subscribing loop's pool: the answer's bytes as
 * they arrive, read only while the subscriber has demand; a non-2xx answer fails with its status and body, one over
 * the size limit (declared or received) fails at once, and a cancelled call closes its connection.
 */
final class NodeCall extends Flux<byte[]> {

    private final NodeConnections connections;
    private final NodeTarget target;
    private final byte[] body;
    private final List<Map.Entry<String, String>> headers;
    private final long maxResponseBytes;

    NodeCall(NodeConnections connections, NodeTarget target, byte[] body, List<Map.Entry<String, String>> headers,
            long maxResponseBytes) {
        this.connections = connections;
        this.target = target;
        this.body = body;
        this.headers = headers;
        this.maxResponseBytes = maxResponseBytes;
    }

    @Override
    public void subscribe(CoreSubscriber<? super byte[]> actual) {
        Exchange exchange = new Exchange(actual, connections.pool());
        actual.onSubscribe(exchange);
        try {
            exchange.onLoop(exchange::start);
        } catch (RejectedExecutionException e) {
            // the loops are shutting down: no call can be made, and none will touch this one's state
            actual.onError(UpstreamFailure.of("upstream_io_error"));
        }
    }

    /** The call's state; every field is touched on its loop only (request and cancel hop there). */
    final class Exchange implements Subscription {

        private final CoreSubscriber<? super byte[]> actual;
        private final NodeConnections.LoopPool pool;
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        private NodeConnections.NodeChannel connection;
        private long demand;
        private boolean cancelled;
        /** No more bytes will come: the answer ended, failed or was cancelled. */
        private boolean finished;
        private boolean signalled;
        private Throwable failure;
        private boolean reused;
        /** The request is all written: only then may the connection carry another one. */
        private boolean written;
        private boolean retried;
        private boolean answering;
        private boolean informational;
        private boolean keepAlive;
        private boolean paused;
        private long total;
        private ByteArrayOutputStream errorBody;
        private int status;
        private boolean draining;
        private boolean missed;

        Exchange(CoreSubscriber<? super byte[]> actual, NodeConnections.LoopPool pool) {
            this.actual = actual;
            this.pool = pool;
        }

        void onLoop(Runnable step) {
            if (pool.loop.inEventLoop()) {
                step.run();
            } else {
                pool.loop.execute(step);
            }
        }

        void start() {
            if (cancelled) {
                return;
            }
            NodeConnections.NodeChannel idle = pool.poll(target);
            if (idle != null) {
                send(idle, true);
            } else {
                connect();
            }
        }

        private void connect() {
            pool.connect(target, (opened, cause) -> {
                if (opened == null) {
                    finish(UpstreamClient.transportFailure(cause));
                } else if (cancelled) {
                    // unused: as good as any idle one
                    pool.release(opened);
                } else {
                    send(opened, false);
                }
            });
        }

        private void send(NodeConnections.NodeChannel channel, boolean wasIdle) {
            DefaultFullHttpRequest request;
            try {
                request = request();
            } catch (RuntimeException e) {
                // a header Netty will not write (a name or value that is not HTTP, or null): nothing was sent
                pool.release(channel);
                finish(UpstreamFailure.of("upstream_io_error"));
                return;
            }
            connection = channel;
            reused = wasIdle;
            channel.current = this;
            channel.channel.writeAndFlush(request).addListener(f -> {
                if (f.isSuccess()) {
                    written = true;
                } else if (connection == channel) {
                    lost(f.cause());
                }
            });
        }

        private DefaultFullHttpRequest request() {
            DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
                    target.path(), Unpooled.wrappedBuffer(body));
            HttpHeaders h = request.headers();
            h.set(HttpHeaderNames.HOST, target.hostHeader());
            h.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            h.set(HttpHeaderNames.ACCEPT, "text/event-stream");
            h.set(HttpHeaderNames.CONTENT_LENGTH, body.length);
            for (Map.Entry<String, String> header : headers) {
                h.add(header.getKey(), header.getValue());
            }
            return request;
        }

        /** A message of the answer, on the loop. */
        void received(Object msg) {
            try {
                // the node has begun to answer (even unreadably): the call is never sent again
                answering = true;
                if (msg instanceof DecoderResultProvider provider && provider.decoderResult().isFailure()) {
                    lost(provider.decoderResult().cause());
                    return;
                }
                if (msg instanceof HttpResponse response) {
                    informational = response.status().code() < 200;
                    if (informational) {
                        // an interim answer (100 Continue): the real one follows
                        return;
                    }
                    status = response.status().code();
                    keepAlive = HttpUtil.isKeepAlive(response);
                    String declared = response.headers().get(HttpHeaderNames.CONTENT_LENGTH);
                    if (declared != null && UpstreamClient.declaredTooLarge(declared, maxResponseBytes)) {
                        abort(UpstreamFailure.of(UpstreamClient.TOO_LARGE));
                        return;
                    }
                    if (status >= 300) {
                        // any other status (3xx included: redirects are never followed) fails with its body
                        errorBody = new ByteArrayOutputStream();
                    }
                }
                if (msg instanceof HttpContent content && !finished) {
                    if (informational) {
                        informational = !(content instanceof LastHttpContent);
                        return;
                    }
                    ByteBuf bytes = content.content();
                    int length = bytes.readableBytes();
                    if (length > 0) {
                        total += length;
                        if (total > maxResponseBytes) {
                            abort(UpstreamFailure.of(UpstreamClient.TOO_LARGE));
                            return;
                        }
                        if (errorBody != null) {
                            bytes.readBytes(errorBody, length);
                        } else {
                            queue.add(ByteBufUtil.getBytes(bytes));
                        }
                    }
                    if (content instanceof LastHttpContent) {
                        ended();
                    }
                }
            } catch (IOException e) {
                lost(e);
            } finally {
                ReferenceCountUtil.release(msg);
            }
            drain();
        }

        /** The answer ended: its connection goes back to the pool (unless the node closes it). */
        private void ended() {
            NodeConnections.NodeChannel channel = detach();
            // an answer that ends before the request is all written (an early 4xx) leaves the rest of it in the way
            if (keepAlive && written && channel.channel.isActive()) {
                pool.release(channel);
            } else {
                channel.channel.close();
            }
            finish(errorBody == null ? null : UpstreamFailure.status(status, errorBody.toByteArray()));
        }

        /** Fails the call mid-answer: what was read before still goes first; the connection is closed. */
        private void abort(UpstreamFailure cause) {
            closeConnection();
            finish(cause);
        }

        /**
         * The connection broke (or failed to write): a reused one that the node had closed before any answer is
         * replaced once by a new one; otherwise the call fails.
         */
        void lost(Throwable cause) {
            if (finished) {
                return;
            }
            closeConnection();
            if (reused && !answering && !retried && !cancelled) {
                retried = true;
                connect();
                return;
            }
            finish(UpstreamFailure.of("upstream_io_error"));
        }

        /** Takes the call off its connection, if it has one, and closes that connection. */
        private void closeConnection() {
            NodeConnections.NodeChannel channel = detach();
            if (channel != null) {
                channel.channel.close();
            }
        }

        private NodeConnections.NodeChannel detach() {
            NodeConnections.NodeChannel channel = connection;
            connection = null;
            if (channel != null) {
                channel.current = null;
            }
            return channel;
        }

        private void finish(Throwable cause) {
            if (!finished) {
                finished = true;
                failure = cause;
            }
            drain();
        }

        @Override
        public void request(long n) {
            if (Operators.validate(n)) {
                onLoop(() -> {
                    demand = Operators.addCap(demand, n);
                    drain();
                });
            }
        }

        @Override
        public void cancel() {
            onLoop(() -> {
                if (cancelled) {
                    return;
                }
                cancelled = true;
                queue.clear();
                if (!finished) {
                    finished = true;
                    closeConnection();
                }
            });
        }

        /** Hands queued bytes to the subscriber as far as its demand goes, then the end; pauses reading meanwhile. */
        private void drain() {
            if (draining) {
                missed = true;
                return;
            }
            draining = true;
            try {
                do {
                    missed = false;
                    while (demand > 0 && !queue.isEmpty() && !cancelled) {
                        if (demand != Long.MAX_VALUE) {
                            demand--;
                        }
                        actual.onNext(queue.poll());
                    }
                    if (cancelled) {
                        queue.clear();
                        return;
                    }
                    if (queue.isEmpty() && finished && !signalled) {
                        signalled = true;
                        if (failure != null) {
                            actual.onError(failure);
                        } else {
                            actual.onComplete();
                        }
                        return;
                    }
                } while (missed);
                NodeConnections.NodeChannel channel = connection;
                boolean full = !queue.isEmpty();
                if (channel != null && full != paused) {
                    paused = full;
                    channel.channel.config().setAutoRead(!full);
                }
            } finally {
                draining = false;
            }
        }
    }
}
