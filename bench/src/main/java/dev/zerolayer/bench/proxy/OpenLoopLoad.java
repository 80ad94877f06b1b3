package dev.zerolayer.bench.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Open-loop load at a fixed rate: request i is due at start + i/rate whether or not earlier ones have answered, and
 * its latency is counted from that due time (coordinated omission corrected), to the whole body for non-streaming
 * requests and to the first body byte for streaming ones.
 *
 * <p>The generator shares the machine with what it measures, so it is lean: one pacing thread and one thread on a
 * plain NIO selector over keep-alive HTTP/1.1 connections (the most recently freed one reused first), requests
 * prepared once as bytes, response bodies skipped rather than stored. A Reactor Netty client doing the same spent
 * about 67 % of a core at 1,000 streams/s here; this one about a fifth of a core.
 */
public final class OpenLoopLoad {

    /** One POST to send repeatedly. */
    public record Target(String name, String url, Map<String, String> headers, String body, boolean streaming) {
    }

    /** Latencies in microseconds of one run, plus what failed. */
    public record Result(String target, int rate, boolean streaming, Histogram latencyMicros, long sent, long ok,
            long failed, long late) {
    }

    /** How long requests still in flight after the last one was sent may take before they count as failed. */
    private static final Duration DRAIN = Duration.ofSeconds(60);

    private final int maxConnections;

    /**
     * @param maxConnections at most this many connections at once; a request beyond them waits for one, and the wait
     *     counts in its latency (it is timed from its due time)
     */
    public OpenLoopLoad(int maxConnections) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
        this.maxConnections = maxConnections;
    }

    public Result run(Target target, int rate, Duration length) throws InterruptedException {
        if (rate < 1) {
            throw new IllegalArgumentException("rate must be at least 1");
        }
        URI uri = URI.create(target.url());
        if (!"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException("only http:// targets: " + target.url());
        }
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
        byte[] request = request(uri, target);
        long total = Math.max(1, (long) rate * length.toMillis() / 1000);
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime() + 10_000_000;
        Histogram latency = new Histogram(3);
        Run run;
        try {
            run = new Run(address, request, target.streaming(), total, latency);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        Thread io = new Thread(run, "open-loop-io");
        io.setDaemon(true);
        io.start();
        long late = 0;
        for (long i = 0; i < total; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (wait < -1_000_000) {
                late++;
            }
            run.due(due);
        }
        io.join(DRAIN.toMillis() + 1_000);
        run.stop();
        io.join(TimeUnit.SECONDS.toMillis(5));
        return new Result(target.name(), rate, target.streaming(), run.latency(), total, run.ok(),
                total - run.ok(), late);
    }

    /** The request's bytes, headers and body, ready to write as they are for every request. */
    static byte[] request(URI uri, Target target) {
        byte[] body = target.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256);
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        head.append("POST ").append(path).append(" HTTP/1.1\r\n");
        head.append("host: ").append(uri.getHost()).append(uri.getPort() < 0 ? "" : ":" + uri.getPort())
                .append("\r\n");
        head.append("content-type: application/json\r\n");
        target.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("content-length: ").append(body.length).append("\r\n\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    /** One connection and the request on it. */
    private static final class Connection {
        final SocketChannel channel;
        final ResponseReader reader = new ResponseReader();
        long due = -1;
        boolean timed;
        boolean closed;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }

    /** The I/O side of one run: sends each due request on a free connection and times its response. */
    private final class Run implements Runnable {

        private final InetSocketAddress address;
        private final byte[] request;
        private final boolean streaming;
        private final long total;
        private final Histogram latency;
        private final Selector selector;
        private final ConcurrentLinkedQueue<Long> dueQueue = new ConcurrentLinkedQueue<>();
        private final ArrayDeque<Long> waiting = new ArrayDeque<>();
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        private int open;
        private long finished;
        private volatile long ok;
        private volatile boolean stopped;

        Run(InetSocketAddress address, byte[] request, boolean streaming, long total, Histogram latency)
                throws IOException {
            this.address = address;
            this.request = request;
            this.streaming = streaming;
            this.total = total;
            this.latency = latency;
            this.selector = Selector.open();
        }

        void due(long due) {
            dueQueue.add(due);
            selector.wakeup();
        }

        void stop() {
            stopped = true;
            selector.wakeup();
        }

        long ok() {
            return ok;
        }

        /** Read once the I/O thread has ended (join gives the happens-before). */
        Histogram latency() {
            return latency;
        }

        @Override
        public void run() {
            try {
                while (!stopped && finished < total) {
                    selector.select(100);
                    Long due;
                    while ((due = dueQueue.poll()) != null) {
                        waiting.add(due);
                    }
                    sendWaiting();
                    for (SelectionKey key : selector.selectedKeys()) {
                        readable((Connection) key.attachment());
                    }
                    selector.selectedKeys().clear();
                    // connections freed by these responses take the requests that waited for one
                    sendWaiting();
                }
            } catch (IOException e) {
                throw new IllegalStateException("the load generator's selector failed", e);
            } finally {
                for (SelectionKey key : selector.keys()) {
                    closeQuietly(((Connection) key.attachment()).channel);
                }
                try {
                    selector.close();
                } catch (IOException ignored) {
                    // closing at the end of the run
                }
            }
        }

        private void sendWaiting() {
            while (!waiting.isEmpty()) {
                Connection connection = idle.pollLast();
                if (connection == null) {
                    if (open >= maxConnections) {
                        return;
                    }
                    try {
                        connection = connect();
                    } catch (IOException e) {
                        waiting.poll();
                        finished++;
                        continue;
                    }
                }
                long due = waiting.poll();
                connection.due = due;
                connection.timed = false;
                connection.reader.reset();
                try {
                    ByteBuffer out = ByteBuffer.wrap(request);
                    while (out.hasRemaining()) {
                        connection.channel.write(out);
                    }
                } catch (IOException e) {
                    fail(connection);
                }
            }
        }

        private Connection connect() throws IOException {
            SocketChannel channel = SocketChannel.open(address);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            Connection connection = new Connection(channel);
            channel.register(selector, SelectionKey.OP_READ, connection);
            open++;
            return connection;
        }

        private void readable(Connection connection) {
            if (connection.closed) {
                return;
            }
            int read;
            try {
                buffer.clear();
                read = connection.channel.read(buffer);
            } catch (IOException e) {
                read = -1;
            }
            if (read < 0) {
                // closed by the server: a failure if a response was under way, otherwise an idle connection gone
                if (connection.due >= 0) {
                    fail(connection);
                } else {
                    close(connection);
                }
                return;
            }
            buffer.flip();
            if (connection.due < 0) {
                // bytes nobody asked for: the connection is unusable
                close(connection);
                return;
            }
            boolean complete;
            try {
                complete = connection.reader.feed(buffer);
            } catch (RuntimeException e) {
                fail(connection);
                return;
            }
            long now = System.nanoTime();
            boolean success = connection.reader.status() == 200;
            if (streaming && success && !connection.timed && connection.reader.bodyStarted()) {
                connection.timed = true;
                record(connection.due, now);
            }
            if (!complete) {
                return;
            }
            if (success) {
                if (!streaming) {
                    record(connection.due, now);
                }
                ok++;
            }
            finished++;
            connection.due = -1;
            if (connection.reader.closes() || buffer.hasRemaining()) {
                close(connection);
            } else {
                idle.addLast(connection);
            }
        }

        private void record(long due, long now) {
            latency.recordValue(Math.max(1, (now - due) / 1_000));
        }

        private void fail(Connection connection) {
            finished++;
            connection.due = -1;
            close(connection);
        }

        /** Closes the connection and forgets it (an idle one leaves the idle list). */
        private void close(Connection connection) {
            if (connection.closed) {
                return;
            }
            connection.closed = true;
            open--;
            idle.remove(connection);
            SelectionKey key = connection.channel.keyFor(selector);
            if (key != null) {
                key.cancel();
            }
            closeQuietly(connection.channel);
        }

        private static void closeQuietly(SocketChannel channel) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the connection is being dropped either way
            }
        }
    }
}
