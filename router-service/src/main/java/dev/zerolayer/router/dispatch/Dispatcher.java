package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.fallback.Resilience;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.api.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Bypass, not retry: tries the ranked nodes in order, each once, behind its breaker and bulkhead and with a
 * time-to-first-byte limit; a failure before the first byte moves to the next node while the deadline allows; after
 * the first byte the failure goes to the caller. An upstream silent for longer than the TTFB limit after its first byte
 * has stalled (a crashed host sends no FIN) and fails the attempt too. With no node left it fails with 529, past the
 * deadline with 504.
 */
public class Dispatcher {

    /** How to call one node: the upstream body and path for its protocol, and headers to send. */
    public record Call(String path, byte[] body, Map<String, String> headers) {
    }

    private final UpstreamClient client;
    private final NodeGuards guards;
    private final EventLoops eventLoops;

    public Dispatcher(UpstreamClient client, NodeGuards guards) {
        this(client, guards, EventLoops.none());
    }

    /** @param eventLoops the server's loops: an attempt's timers run on the loop the attempt runs on */
    public Dispatcher(UpstreamClient client, NodeGuards guards, EventLoops eventLoops) {
        this.client = client;
        this.guards = guards;
        this.eventLoops = eventLoops;
    }

    /** The scheduler for a request's own timers: the calling thread's event loop (no other thread woken for them). */
    public Scheduler timers() {
        return eventLoops.timers();
    }

    /**
     * The serving node's response bytes as they arrive.
     *
     * @param ranked     nodes in order (each tried at most once)
     * @param nodes      registration of a node id (empty: the node vanished, skipped)
     * @param callFor    the call for a node's registration
     * @param ttfbLimit  per-attempt time to first byte
     * @param deadline   the request's deadline for a first byte, from the trace's start
     */
    public Flux<byte[]> dispatch(List<String> ranked, Function<String, java.util.Optional<NodeRegistration>> nodes,
            Function<NodeRegistration, Call> callFor, boolean streaming, Resilience resilience, Duration ttfbLimit,
            Duration deadline, DispatchTrace trace) {
        long deadlineNanos = trace.startNanos() + deadline.toNanos();
        AtomicBoolean started = new AtomicBoolean();
        return attempt(ranked, 0, nodes, callFor, streaming, resilience, ttfbLimit, deadlineNanos, trace, started);
    }

    private Flux<byte[]> attempt(List<String> ranked, int index,
            Function<String, java.util.Optional<NodeRegistration>> nodes, Function<NodeRegistration, Call> callFor,
            boolean streaming, Resilience resilience, Duration ttfbLimit, long deadlineNanos, DispatchTrace trace,
            AtomicBoolean started) {
        return Flux.defer(() -> {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return Flux.error(ApiException.timeout("the request deadline passed before any node answered"));
            }
            if (index >= ranked.size()) {
                return Flux.error(ApiException.overloaded("no node could serve the request"));
            }
            String node = ranked.get(index);
            java.util.Optional<NodeRegistration> registration = nodes.apply(node);
            if (registration.isEmpty()) {
                return attempt(ranked, index + 1, nodes, callFor, streaming, resilience, ttfbLimit, deadlineNanos,
                        trace, started);
            }
            trace.attempting(node);
            Duration limit = Duration.ofNanos(Math.min(ttfbLimit.toNanos(), remaining));
            boolean deadlineBound = remaining < ttfbLimit.toNanos();
            return one(node, registration.get(), callFor.apply(registration.get()), streaming, resilience, limit,
                    ttfbLimit, deadlineBound, trace, started)
                    .onErrorResume(e -> !started.get() && bypassable(e), e -> {
                        trace.failed(reasonOf(e));
                        return attempt(ranked, index + 1, nodes, callFor, streaming, resilience, ttfbLimit,
                                deadlineNanos, trace, started);
                    });
        });
    }

    private Flux<byte[]> one(String node, NodeRegistration registration, Call call, boolean streaming,
            Resilience resilience, Duration ttfbLimit, Duration stallLimit, boolean deadlineBound, DispatchTrace trace,
            AtomicBoolean started) {
        NodeGuards.Guard guard = guards.guard(node, resilience);
        if (!guard.breaker().tryAcquirePermission()) {
            return Flux.error(UpstreamFailure.of("circuit_open"));
        }
        if (!guard.bulkhead().tryAcquirePermission()) {
            guard.breaker().releasePermission();
            return Flux.error(UpstreamFailure.of("bulkhead_full"));
        }
        guard.inFlight().incrementAndGet();
        long start = System.nanoTime();
        AtomicBoolean recorded = new AtomicBoolean();
        String url = UpstreamClient.url(registration.upstreamBaseUrl(), call.path());
        AtomicBoolean firstByte = new AtomicBoolean();
        Flux<byte[]> raw = client.post(url, call.body(), streaming, call.headers())
                // the first chunk within the TTFB limit, then no gap between chunks longer than the tier's TTFB limit
                .timeout(Mono.delay(ttfbLimit, eventLoops.timers()), chunk -> Mono.delay(stallLimit,
                        eventLoops.timers()))
                .onErrorMap(TimeoutException.class, e -> firstByte.get() ? UpstreamFailure.of("upstream_stalled")
                        : deadlineBound ? ApiException.timeout("the request deadline passed before any node answered")
                        : UpstreamFailure.of("ttfb_timeout"))
                .doOnNext(bytes -> {
                    firstByte.set(true);
                    if (recorded.compareAndSet(false, true)) {
                        guard.breaker().onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    }
                });
        // A non-streaming client gets the whole body or nothing: the attempt's one element is the complete body.
        Flux<byte[]> shaped = streaming ? raw : raw.collectList().map(Dispatcher::concat).flux();
        return shaped
                .doOnNext(bytes -> {
                    started.set(true);
                    trace.chunk(node, registration);
                })
                .doOnError(e -> {
                    if (recorded.compareAndSet(false, true)) {
                        if (e instanceof UpstreamFailure failure && !failure.bypassable()) {
                            guard.breaker().onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                        } else {
                            guard.breaker().onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                        }
                    } else {
                        // Failed after the first byte: the node broke a stream it had started.
                        guard.breaker().onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                    }
                })
                .doFinally(signal -> {
                    if (recorded.compareAndSet(false, true)) {
                        guard.breaker().releasePermission();
                    }
                    guard.inFlight().decrementAndGet();
                    guard.bulkhead().onComplete();
                });
    }

    /** The parts one after another in one array (the part itself when there is only one). */
    public static byte[] concat(List<byte[]> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int size = 0;
        for (byte[] part : parts) {
            size += part.length;
        }
        byte[] all = new byte[size];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    private static boolean bypassable(Throwable e) {
        return e instanceof UpstreamFailure failure && failure.bypassable();
    }

    static String reasonOf(Throwable e) {
        return e instanceof UpstreamFailure failure ? failure.reason() : e.getClass().getSimpleName();
    }
}
