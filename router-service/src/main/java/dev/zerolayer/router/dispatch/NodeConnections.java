package dev.zerolayer.router.dispatch;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import reactor.netty.resources.LoopResources;

/**
 * Keep-alive HTTP/1.1 connections to the nodes, pooled per event loop and used only by their own loop: a call made on
 * a loop takes that loop's most recently used idle connection to the node (or opens one on that loop), so the request,
 * its upstream write and every read of the answer stay on one thread; a connection idle for 30 s is closed.
 */
final class NodeConnections {

    /** How long a connection may stay idle in its pool. */
    static final long MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long SWEEP_SECONDS = 10;

    private final LoopPool[] pools;
    private final Class<? extends SocketChannel> channelClass;
    private final DnsAddressResolverGroup resolver;
    private final int connectTimeoutMs;
    private int nextLoop;

    /**
     * @param resources where the loops and their channel classes come from
     * @param group the loops calls run on (the HTTP server's, or the client loops when there is no server)
     */
    NodeConnections(LoopResources resources, EventLoopGroup group, int connectTimeoutMs) {
        List<LoopPool> found = new ArrayList<>();
        for (EventExecutor executor : group) {
            found.add(new LoopPool((EventLoop) executor));
        }
        this.pools = found.toArray(LoopPool[]::new);
        this.channelClass = resources.onChannelClass(SocketChannel.class, group);
        // names are resolved without blocking a loop (the JDK's resolver would)
        this.resolver = new DnsAddressResolverGroup(new DnsNameResolverBuilder()
                .datagramChannelType(resources.onChannelClass(DatagramChannel.class, group))
                .socketChannelType(channelClass));
        this.connectTimeoutMs = connectTimeoutMs;
    }

    /** The calling thread's pool, or (off the loops) the next loop's in turn. */
    LoopPool pool() {
        for (LoopPool pool : pools) {
            if (pool.loop.inEventLoop()) {
                return pool;
            }
        }
        synchronized (this) {
            nextLoop = (nextLoop + 1) % pools.length;
            return pools[nextLoop];
        }
    }

    /** One loop's idle connections by node address, most recently used first; touched only on that loop. */
    final class LoopPool {

        final EventLoop loop;
        private final Map<String, ArrayDeque<NodeChannel>> idle = new HashMap<>();
        private boolean sweeping;

        LoopPool(EventLoop loop) {
            this.loop = loop;
        }

        /** The most recently used idle connection to the address, or null. */
        NodeChannel poll(NodeTarget target) {
            ArrayDeque<NodeChannel> channels = idle.get(target.address());
            while (channels != null && !channels.isEmpty()) {
                NodeChannel channel = channels.pollFirst();
                if (channel.channel.isActive()) {
                    return channel;
                }
            }
            return null;
        }

        /** Opens a connection to the target on this loop; {@code done} gets it, or the failure, on this loop. */
        void connect(NodeTarget target, BiConsumer<NodeChannel, Throwable> done) {
            NodeChannel handler = new NodeChannel(this, target.address());
            Bootstrap bootstrap = new Bootstrap().group(loop).channel(channelClass).resolver(resolver)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            handler.channel = channel;
                            channel.pipeline().addLast(new HttpClientCodec(), handler);
                        }
                    });
            bootstrap.connect(target.host(), target.port()).addListener((ChannelFuture f) -> {
                // a channel that could not even be registered reports on Netty's global executor: back to the loop
                Runnable report = () -> done.accept(f.isSuccess() ? handler : null, f.cause());
                if (loop.inEventLoop()) {
                    report.run();
                } else {
                    loop.execute(report);
                }
            });
        }

        /** A connection whose answer ended cleanly goes back, first in line. */
        void release(NodeChannel channel) {
            channel.idleSince = System.nanoTime();
            channel.channel.config().setAutoRead(true);
            idle.computeIfAbsent(channel.address, a -> new ArrayDeque<>()).addFirst(channel);
            if (!sweeping) {
                sweeping = true;
                loop.scheduleAtFixedRate(this::sweep, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
            }
        }

        void forget(NodeChannel channel) {
            ArrayDeque<NodeChannel> channels = idle.get(channel.address);
            if (channels != null) {
                channels.remove(channel);
            }
        }

        /** Closes the connections idle for longer than the limit (the oldest are last in line). */
        private void sweep() {
            long now = System.nanoTime();
            for (Iterator<ArrayDeque<NodeChannel>> it = idle.values().iterator(); it.hasNext(); ) {
                ArrayDeque<NodeChannel> channels = it.next();
                while (!channels.isEmpty() && now - channels.peekLast().idleSince > MAX_IDLE_NANOS) {
                    channels.pollLast().channel.close();
                }
                if (channels.isEmpty()) {
                    it.remove();
                }
            }
        }
    }

    /**
     * A connection's end of the pipeline: hands what arrives to the call using it; an idle one that closes leaves the
     * pool.
     */
    static final class NodeChannel extends ChannelInboundHandlerAdapter {

        final LoopPool pool;
        final String address;
        Channel channel;
        NodeCall.Exchange current;
        long idleSince;

        NodeChannel(LoopPool pool, String address) {
            this.pool = pool;
            this.address = address;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            NodeCall.Exchange exchange = current;
            if (exchange == null) {
                // nothing is asked on an idle connection: whatever comes is not ours to read
                ReferenceCountUtil.release(msg);
                ctx.close();
                return;
            }
            exchange.received(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            NodeCall.Exchange exchange = current;
            current = null;
            if (exchange != null) {
                exchange.lost(null);
            } else {
                pool.forget(this);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            NodeCall.Exchange exchange = current;
            current = null;
            ctx.close();
            if (exchange != null) {
                exchange.lost(cause);
            }
        }
    }
}
