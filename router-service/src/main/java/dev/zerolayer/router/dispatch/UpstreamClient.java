package dev.zerolayer.router.dispatch;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpResources;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * POSTs a JSON body to a node (asking for a stream) and streams back the response bytes as they arrive: never follows redirects, sends only
 * the headers it is given (the gateway forwards no client credentials), fails a non-2xx response (a redirect too) with its
 * status and body, and fails a response (success or error) larger than the limit, by its declared length or as the
 * bytes arrive; a plain-HTTP node is called over the calling loop's own keep-alive connections ({@link NodeCall}), a
 * TLS one through Reactor Netty's client.
 */
public class UpstreamClient {

    /** Reason of an attempt whose response body (declared or received) exceeds the limit. */
    public static final String TOO_LARGE = "upstream_response_too_large";

    private final HttpClient shared;
    private final HttpClient[] perLoop;
    private final EventLoops eventLoops;
    private final long maxResponseBytes;
    private final NodeConnections connections;

    public UpstreamClient(int connectTimeoutMs, long maxResponseBytes) {
        this(connectTimeoutMs, maxResponseBytes, EventLoops.none());
    }

    /**
     * @param eventLoops the HTTP server's loops, which the client runs on, so that a request and its upstream call
     *     share a thread and the machine carries one set of I/O threads, not two (none: Reactor Netty's global ones);
     *     a call made on loop i takes a connection from loop i's own pool, made on (and read by) that loop, so the
     *     request never changes thread; a shared pool hands a loop connections of other loops, and every call then
     *     crosses threads twice (none: plain-HTTP calls run on Reactor Netty's global client loops)
     */
    public UpstreamClient(int connectTimeoutMs, long maxResponseBytes, EventLoops eventLoops) {
        this.eventLoops = eventLoops;
        LoopResources loops = eventLoops.resources();
        this.shared = client("zerolayer-upstream", connectTimeoutMs, loops);
        this.perLoop = new HttpClient[eventLoops.size()];
        for (int i = 0; i < perLoop.length; i++) {
            perLoop[i] = client("zerolayer-upstream-loop-" + i, connectTimeoutMs, loops);
        }
        this.maxResponseBytes = maxResponseBytes;
        this.connections = loops == null
                ? new NodeConnections(HttpResources.get(), HttpResources.get().onClient(LoopResources.DEFAULT_NATIVE),
                        connectTimeoutMs)
                : new NodeConnections(loops, loops.onServer(LoopResources.DEFAULT_NATIVE), connectTimeoutMs);
    }

    private static HttpClient client(String poolName, int connectTimeoutMs, LoopResources loops) {
        // LIFO: the most recently used connection goes out first, so a burst's extra connections fall idle and close;
        // FIFO kept every one of them (hundreds after a cold start) in rotation forever
        ConnectionProvider pool = ConnectionProvider.builder(poolName).maxConnections(2_000)
                .pendingAcquireMaxCount(-1).maxIdleTime(Duration.ofSeconds(30)).lifo().build();
        HttpClient client = HttpClient.create(pool);
        if (loops != null) {
            client = client.runOn(loops);
        }
        return client.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                .followRedirect(false)
                .keepAlive(true);
    }

    /** The client whose pool belongs to the calling thread's loop (the shared one off the loops). */
    private HttpClient http() {
        int loop = eventLoops.current();
        return loop < 0 ? shared : perLoop[loop];
    }

    /** The node's URL for an API path: {@code base + path}, without doubling a {@code /v1} the base already has. */
    public static String url(String baseUrl, String path) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        if (base.endsWith("/v1") && path.startsWith("/v1/")) {
            base = base.substring(0, base.length() - 3);
        }
        return base + path;
    }

    /** Whether a declared Content-Length is over the limit (an unreadable one is not: the bytes are counted anyway). */
    static boolean declaredTooLarge(String contentLength, long maxResponseBytes) {
        try {
            return Long.parseLong(contentLength.trim()) > maxResponseBytes;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The body's chunks as they arrive, failing the attempt once they add up to more than the limit. */
    private Flux<byte[]> limited(Flux<byte[]> chunks) {
        // map, not handle: handle restores the tracing thread-locals around every chunk
        long[] total = new long[1];
        return chunks.map(bytes -> {
            total[0] += bytes.length;
            if (total[0] > maxResponseBytes) {
                throw UpstreamFailure.of(TOO_LARGE);
            }
            return bytes;
        });
    }

    /**
     * POSTs a JSON body asking for an event stream; {@code headers} are added as given (a name may repeat). A plain
     * {@code http://} node is called over this client's own per-loop connections ({@link NodeCall}); any other URL
     * (TLS) through Reactor Netty's client.
     */
    public Flux<byte[]> post(String url, byte[] body, List<Map.Entry<String, String>> headers) {
        NodeTarget target;
        try {
            target = NodeTarget.of(url);
        } catch (IllegalArgumentException e) {
            // a node registered with an unusable URL fails its attempt like any node that cannot be reached
            return Flux.error(UpstreamFailure.of("upstream_io_error"));
        }
        if (target != null) {
            return new NodeCall(connections, target, body, headers, maxResponseBytes);
        }
        return http().headers(h -> {
                    h.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                    h.set(HttpHeaderNames.ACCEPT, "text/event-stream");
                    for (Map.Entry<String, String> header : headers) {
                        h.add(header.getKey(), header.getValue());
                    }
                })
                .post()
                .uri(url)
                .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                .response((response, content) -> {
                    int status = response.status().code();
                    String declared = response.responseHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
                    if (declared != null && declaredTooLarge(declared, maxResponseBytes)) {
                        return Flux.error(UpstreamFailure.of(TOO_LARGE));
                    }
                    // map, not asByteArray: that is a handle, which restores the thread-locals around every chunk
                    Flux<byte[]> received = limited(content.map(ByteBufUtil::getBytes));
                    if (status >= 200 && status < 300) {
                        return received;
                    }
                    // any other status (3xx included: redirects are never followed) fails the attempt with its body
                    return received.collectList().map(Dispatcher::concat)
                            .flatMapMany(bytes -> Flux.<byte[]>error(UpstreamFailure.status(status, bytes)));
                })
                .onErrorMap(e -> !(e instanceof UpstreamFailure), UpstreamClient::transportFailure);
    }

    /** A failure to reach or talk to a node: a refused or timed-out connect, else an I/O error. */
    static UpstreamFailure transportFailure(Throwable e) {
        return UpstreamFailure.of(e instanceof ConnectException
                || (e != null && e.getCause() instanceof ConnectException)
                ? "upstream_connect_failed" : "upstream_io_error");
    }
}
