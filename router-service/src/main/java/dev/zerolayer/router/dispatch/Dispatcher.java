package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.fallback.Hedge;
import dev.zerolayer.contracts.fallback.Resilience;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.wire.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * Bypass, not retry: tries the ranked nodes in order, each once, behind its breaker and bulkhead and with a limit on
 * the time to the node's first byte (its first token: nodes are always asked to stream); a failure before the client
 * got anything moves to the next node while the first-token deadline allows; after it the attempt's own ending takes
 * over (a continuation elsewhere, or the API's error). A node silent for longer than the chunk gap between chunks has
 * stalled (a crashed host sends no FIN) and fails the attempt too, and no answer runs past the answer deadline. With no node left it fails
 * with 529, past a deadline with 504.
 */
public class Dispatcher {

    private final UpstreamClient client;
    private final NodeGuards guards;
    private final EventLoops eventLoops;
    private final Hedging hedging;

    public Dispatcher(UpstreamClient client, NodeGuards guards) {
        this(client, guards, EventLoops.none(), null);
    }

    /**
     * @param eventLoops the server's loops: an attempt's timers run on the loop the attempt runs on
     * @param hedging    nodes' times to first byte and the hedge budgets (null: never hedged)
     */
    public Dispatcher(UpstreamClient client, NodeGuards guards, EventLoops eventLoops, Hedging hedging) {
        this.client = client;
        this.guards = guards;
        this.eventLoops = eventLoops;
        this.hedging = hedging;
    }

    /** The scheduler for a request's own timers: the calling thread's event loop (no other thread woken for them). */
    public Scheduler timers() {
        return eventLoops.timers();
    }

    /**
     * The limits one request is dispatched under, each from the trace's start but the per-attempt TTFB limit and the
     * longest silence between a node's chunks once it answers.
     */
    public record Limits(Resilience resilience, Duration ttfbLimit, Duration firstTokenDeadline,
            Duration answerDeadline, Duration chunkGap, HedgePlan hedge) {

        /** Limits whose chunk gap is the TTFB limit, never hedged. */
        public Limits(Resilience resilience, Duration ttfbLimit, Duration firstTokenDeadline, Duration answerDeadline) {
            this(resilience, ttfbLimit, firstTokenDeadline, answerDeadline, ttfbLimit, HedgePlan.NONE);
        }
    }

    /** How a request's first node may be hedged: the tier's policy, the tier, the prompt's tokens. */
    public record HedgePlan(Hedge policy, String tier, int promptTokens) {

        public static final HedgePlan NONE = new HedgePlan(Hedge.off(), "", 0);
    }

    /** The delay after which a request on {@code node} would be hedged (-1: it would not be). */
    public long hedgeDelayNanos(HedgePlan plan, String node) {
        return hedging == null ? -1 : hedging.delayNanos(plan.policy(), node, plan.promptTokens());
    }

    /**
     * What the client gets, from the first node that gives a first element.
     *
     * @param ranked     nodes in order (each tried at most once)
     * @param nodes      registration of a node id (empty: the node vanished, skipped)
     * @param attemptFor the attempt for a node's registration
     */
    public <T> Flux<T> dispatch(List<String> ranked, Function<String, Optional<NodeRegistration>> nodes,
            Function<NodeRegistration, Attempt<T>> attemptFor, Limits limits, DispatchTrace trace) {
        long firstTokenNanos = trace.startNanos() + limits.firstTokenDeadline().toNanos();
        long answerNanos = trace.startNanos() + Math.max(limits.answerDeadline().toNanos(),
                limits.firstTokenDeadline().toNanos());
        AtomicBoolean started = new AtomicBoolean();
        HedgePlan plan = limits.hedge();
        if (hedging != null && plan.policy().enabled() && ranked.size() > 1) {
            hedging.request(plan.tier(), plan.policy());
            long delay = hedging.delayNanos(plan.policy(), ranked.get(0), plan.promptTokens());
            Optional<NodeRegistration> first = nodes.apply(ranked.get(0));
            Optional<NodeRegistration> second = nodes.apply(ranked.get(1));
            if (delay > 0 && first.isPresent() && second.isPresent()) {
                return hedged(ranked, nodes, attemptFor, limits, firstTokenNanos, answerNanos, trace, started,
                        delay);
            }
        }
        return attempt(ranked, 0, nodes, attemptFor, limits, firstTokenNanos, answerNanos, trace, started);
    }

    /**
     * The first node raced against the second, asked after {@code delayNanos} without a first byte (budget allowing):
     * the first to answer serves, the other is cancelled (its connection closed, its slot freed). The first node
     * failing before the delay is an ordinary bypass; both failing go on down the ranking.
     */
    private <T> Flux<T> hedged(List<String> ranked, Function<String, Optional<NodeRegistration>> nodes,
            Function<NodeRegistration, Attempt<T>> attemptFor, Limits limits, long firstTokenNanos, long answerNanos,
            DispatchTrace trace, AtomicBoolean started, long delayNanos) {
        HedgePlan plan = limits.hedge();
        String late = ranked.get(0);
        String hedge = ranked.get(1);
        AtomicBoolean hedgeStarted = new AtomicBoolean();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Sinks.One<Boolean> firstFailed = Sinks.one();
        Flux<T> primary = Flux.defer(() -> tryOne(late, nodes, attemptFor, limits, firstTokenNanos, answerNanos,
                trace, started)).doOnError(e -> {
                    if (!started.get()) {
                        firstFailure.compareAndSet(null, e);
                        firstFailed.tryEmitValue(Boolean.TRUE);
                    }
                });
        Flux<T> second = Mono.firstWithSignal(Mono.delay(Duration.ofNanos(delayNanos), eventLoops.timers())
                        .thenReturn(Boolean.FALSE), firstFailed.asMono())
                .flatMapMany(firstDown -> {
                    if (firstDown) {
                        // failed before the delay: the ordinary bypass goes on from the second node
                        return Flux.<T>empty();
                    }
                    if (trace.upstreamBegan() || !hedging.tryHedge(plan.tier())) {
                        // the first node's answer has begun (a whole answer is still being assembled), or no budget
                        return firstFailed.asMono().thenMany(Flux.<T>empty());
                    }
                    hedgeStarted.set(true);
                    return tryOne(hedge, nodes, attemptFor, limits, firstTokenNanos, answerNanos, trace, started)
                            .onErrorResume(e -> !started.get(), e -> {
                                trace.failed(reasonOf(e));
                                return Flux.empty();
                            });
                });
        AtomicBoolean noted = new AtomicBoolean();
        return Flux.firstWithValue(primary, second)
                .doOnNext(element -> {
                    if (hedgeStarted.get() && noted.compareAndSet(false, true)) {
                        boolean won = hedge.equals(trace.servedNode());
                        hedging.outcome(plan.tier(), won ? "won" : "lost");
                        trace.recovered(new Recovery(won ? Recovery.Kind.HEDGE_WON : Recovery.Kind.HEDGE_LOST, late,
                                hedge, 0, "slow_first_token", delayNanos / 1_000_000));
                    }
                })
                .onErrorResume(e -> !started.get(), e -> {
                    if (hedgeStarted.get() && noted.compareAndSet(false, true)) {
                        hedging.outcome(plan.tier(), "failed");
                    }
                    Throwable cause = firstFailure.get() != null ? firstFailure.get() : e;
                    if (!bypassable(cause)) {
                        return Flux.error(cause);
                    }
                    trace.failed(reasonOf(cause));
                    return attempt(ranked, hedgeStarted.get() ? 2 : 1, nodes, attemptFor, limits, firstTokenNanos,
                            answerNanos, trace, started);
                });
    }

    /** One node, once, as an attempt of the ranking (no bypass after it). */
    private <T> Flux<T> tryOne(String node, Function<String, Optional<NodeRegistration>> nodes,
            Function<NodeRegistration, Attempt<T>> attemptFor, Limits limits, long firstTokenNanos, long answerNanos,
            DispatchTrace trace, AtomicBoolean started) {
        long remaining = firstTokenNanos - System.nanoTime();
        if (remaining <= 0) {
            return Flux.error(ApiException.timeout("the request deadline passed before any node answered"));
        }
        NodeRegistration registration = nodes.apply(node).orElse(null);
        if (registration == null) {
            return Flux.error(UpstreamFailure.of("node_gone"));
        }
        trace.attempting(node);
        Duration ttfb = Duration.ofNanos(Math.min(limits.ttfbLimit().toNanos(), remaining));
        boolean deadlineBound = remaining < limits.ttfbLimit().toNanos();
        try {
            return one(node, registration, attemptFor.apply(registration), limits, ttfb, deadlineBound, answerNanos,
                    trace, started);
        } catch (UpstreamFailure cannotCall) {
            return Flux.error(cannotCall);
        }
    }

    private <T> Flux<T> attempt(List<String> ranked, int index, Function<String, Optional<NodeRegistration>> nodes,
            Function<NodeRegistration, Attempt<T>> attemptFor, Limits limits, long firstTokenNanos, long answerNanos,
            DispatchTrace trace, AtomicBoolean started) {
        return Flux.defer(() -> {
            long remaining = firstTokenNanos - System.nanoTime();
            if (remaining <= 0) {
                return Flux.error(ApiException.timeout("the request deadline passed before any node answered"));
            }
            if (index >= ranked.size()) {
                return Flux.error(ApiException.overloaded("no node could serve the request"));
            }
            String node = ranked.get(index);
            Optional<NodeRegistration> registration = nodes.apply(node);
            if (registration.isEmpty()) {
                return attempt(ranked, index + 1, nodes, attemptFor, limits, firstTokenNanos, answerNanos, trace,
                        started);
            }
            trace.attempting(node);
            Duration ttfb = Duration.ofNanos(Math.min(limits.ttfbLimit().toNanos(), remaining));
            boolean deadlineBound = remaining < limits.ttfbLimit().toNanos();
            Flux<T> tried;
            try {
                tried = one(node, registration.get(), attemptFor.apply(registration.get()), limits, ttfb,
                        deadlineBound, answerNanos, trace, started);
            } catch (UpstreamFailure cannotCall) {
                // the node cannot be called at all (a credential it names is missing): the next one is tried
                tried = Flux.error(cannotCall);
            }
            return tried
                    .onErrorResume(e -> !started.get() && bypassable(e), e -> {
                        trace.failed(reasonOf(e));
                        return attempt(ranked, index + 1, nodes, attemptFor, limits, firstTokenNanos, answerNanos,
                                trace, started);
                    });
        });
    }

    private <T> Flux<T> one(String node, NodeRegistration registration, Attempt<T> attempt, Limits limits,
            Duration ttfbLimit, boolean deadlineBound, long answerNanos, DispatchTrace trace, AtomicBoolean started) {
        NodeGuards.Guard guard = guards.guard(node, limits.resilience());
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
        AtomicBoolean firstByte = new AtomicBoolean();
        AtomicBoolean clientGotSome = new AtomicBoolean();
        String url = UpstreamClient.url(registration.upstreamBaseUrl(), attempt.call().path());
        long stallNanos = limits.chunkGap().toNanos();
        // the first chunk within the TTFB limit, then no gap longer than the tier's chunk gap, and nothing past the
        // answer deadline
        Flux<byte[]> raw = new ChunkDeadlines<>(client.post(url, attempt.call().body(), attempt.call().headers()),
                ttfbLimit.toNanos(), stallNanos, answerNanos, eventLoops.timers())
                .onErrorMap(TimeoutException.class, e -> !firstByte.get()
                        ? (deadlineBound ? ApiException.timeout("the request deadline passed before any node answered")
                                : UpstreamFailure.of("ttfb_timeout"))
                        : System.nanoTime() >= answerNanos ? ApiException.timeout("the answer deadline passed")
                        : UpstreamFailure.of("upstream_stalled"))
                .doOnNext(bytes -> {
                    firstByte.set(true);
                    if (recorded.compareAndSet(false, true)) {
                        trace.firstUpstreamByte();
                        long took = System.nanoTime() - start;
                        guard.breaker().onSuccess(took, TimeUnit.NANOSECONDS);
                        if (hedging != null) {
                            hedging.observe(node, limits.hedge().promptTokens(), took);
                        }
                    }
                });
        return attempt.shape().apply(raw)
                .doOnNext(element -> {
                    if (clientGotSome.compareAndSet(false, true)) {
                        started.set(true);
                        trace.served(node, registration, attempt.served());
                    }
                    trace.chunk();
                })
                .doOnError(e -> {
                    if (recorded.compareAndSet(false, true)) {
                        if (e instanceof UpstreamFailure failure && !failure.bypassable()) {
                            guard.breaker().onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                        } else {
                            guard.breaker().onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                        }
                    } else if (!(e instanceof ApiException)) {
                        // failed after its first byte: the node broke an answer it had started
                        guard.breaker().onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                    }
                })
                .doFinally(signal -> {
                    if (recorded.compareAndSet(false, true)) {
                        guard.breaker().releasePermission();
                    }
                    guard.inFlight().decrementAndGet();
                    guard.bulkhead().onComplete();
                })
                // the node's slot is free before what follows a broken answer (a continuation elsewhere) runs
                .onErrorResume(e -> clientGotSome.get(), e -> {
                    trace.failed(reasonOf(e));
                    return attempt.afterStart().apply(e);
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

    /** A short reason for a failure (no upstream text). */
    public static String reasonOf(Throwable e) {
        return e instanceof UpstreamFailure failure ? failure.reason()
                : e instanceof ApiException api ? "deadline_" + api.status() : e.getClass().getSimpleName();
    }
}
