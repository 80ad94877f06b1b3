package dev.zerolayer.bench.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * The floor a JVM proxy starts from here: plain Netty on two event loops, each client connection paired with one
 * keep-alive connection to the node on the same loop, HTTP/1.1 messages passed through as parsed (no routing, no
 * copies, one flush per read batch); what forwarding alone costs, measured beside the router (bench only).
 */
final class FloorProxy implements AutoCloseable {

    /** The loops' thread name prefix, by which the run finds their CPU time. */
    static final String THREADS = "floor-proxy";

    private final EventLoopGroup loops;
    private final Channel server;

    FloorProxy(String nodeHost, int nodePort) throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.loops = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory(THREADS), io);
        Class<? extends ServerSocketChannel> serverType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        Class<? extends SocketChannel> clientType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        InetSocketAddress node = new InetSocketAddress(nodeHost, nodePort);
        this.server = new ServerBootstrap().group(loops).channel(serverType)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        client.pipeline().addLast(new HttpServerCodec(), new ClientSide(clientType, node));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A client connection: its messages go to its own node connection, opened on its loop at the first one. */
    private static final class ClientSide extends ChannelInboundHandlerAdapter {

        private final Class<? extends SocketChannel> type;
        private final InetSocketAddress node;
        private final Queue<Object> waiting = new ArrayDeque<>();
        private Channel upstream;
        private boolean connected;

        ClientSide(Class<? extends SocketChannel> type, InetSocketAddress node) {
            this.type = type;
            this.node = node;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (connected) {
                upstream.write(msg);
                return;
            }
            waiting.add(msg);
            if (upstream == null) {
                Channel client = ctx.channel();
                ChannelFuture connect = new Bootstrap().group(client.eventLoop()).channel(type)
                        .handler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel channel) {
                                channel.pipeline().addLast(new HttpClientCodec(), new NodeSide(client));
                            }
                        })
                        .connect(node);
                upstream = connect.channel();
                connect.addListener((ChannelFutureListener) done -> {
                    if (!done.isSuccess()) {
                        waiting.forEach(ReferenceCountUtil::release);
                        waiting.clear();
                        client.close();
                        return;
                    }
                    connected = true;
                    while (!waiting.isEmpty()) {
                        upstream.write(waiting.poll());
                    }
                    upstream.flush();
                });
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (connected) {
                upstream.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            waiting.forEach(ReferenceCountUtil::release);
            waiting.clear();
            if (upstream != null) {
                upstream.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** A node connection: what the node sends goes to its client, flushed once per read batch. */
    private static final class NodeSide extends ChannelInboundHandlerAdapter {

        private final Channel client;

        NodeSide(Channel client) {
            this.client = client;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            client.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            client.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            client.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
