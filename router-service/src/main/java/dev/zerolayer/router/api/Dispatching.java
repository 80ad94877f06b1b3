package dev.zerolayer.router.api;

import dev.zerolayer.contracts.fallback.Continuation;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.answer.Answers;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.answer.StreamAnswer;
import dev.zerolayer.router.answer.Transcript;
import dev.zerolayer.router.answer.WholeAnswer;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.dispatch.Attempt;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.NodeCredentials;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.router.translate.ChatToAnthropic;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.routing.decision.RouteDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dispatch stage: a decided request sent over its ranked nodes (nodes are always asked to stream), as a whole
 * answer assembled here (never partial) or as the client's stream, which commits with its first event and, broken by
 * its node, goes on on another.
 */
final class Dispatching {

    private static final TierLimits DEFAULT_LIMITS = new TierLimits(4_000, 60_000);

    private final Dispatcher dispatcher;
    private final RequestRouter router;
    private final ActivePolicy policy;
    private final RequestTracing tracing;
    private final NodeCredentials credentials;
    private final ResponseItems responseItems;
    private final GatewayMetrics metrics;
    private final Outcomes outcomes;

    Dispatching(Dispatcher dispatcher, RequestRouter router, ActivePolicy policy, RequestTracing tracing,
            NodeCredentials credentials, ResponseItems responseItems, GatewayMetrics metrics, Outcomes outcomes) {
        this.dispatcher = dispatcher;
        this.router = router;
        this.policy = policy;
        this.tracing = tracing;
        this.credentials = credentials;
        this.responseItems = responseItems;
        this.metrics = metrics;
        this.outcomes = outcomes;
    }

    /** A whole answer and what dispatching it did. */
    record Answered(Progress.Dispatched dispatched, ObjectNode body) {

        Answered with(Progress.Refusal refusal) {
            return new Answered(dispatched.with(refusal), body);
        }
    }

    /**
     * A whole answer: assembled from the serving node's stream; a node breaking it after its first token has it
     * continued on the next node of the tier (what was assembled as the prefilled start) when the policy allows one
     * more and the answer can go on, else answered afresh by the next node (the client saw nothing); or an error
     * carrying the dispatch so far.
     */
    Mono<Answered> whole(Progress.Decided decided) {
        DispatchTrace trace = new DispatchTrace();
        Answers answers = answers(decided, trace, tierLimits(decided).continuation().on());
        return dispatch(decided, trace, node -> wholeAttempt(decided, trace, call(decided, node, null),
                        answers.whole(node.protocol()), node, 0, null))
                .next()
                .onErrorResume(BrokenWhole.class, broken -> goOn(decided, trace, answers, broken))
                .map(body -> {
                    WholeAnswer served = (WholeAnswer) trace.servedAnswer();
                    metrics.ttfb(trace.ttfbNanos());
                    return new Answered(new Progress.Dispatched(decided, trace,
                            new Progress.Usage(served.inputTokens(), served.outputTokens()), decided.refusal()), body);
                }).onErrorMap(e -> !(e instanceof Progress.Failed),
                        e -> new Progress.Failed(Progress.Dispatched.started(decided, trace), e));
    }

    /**
     * One node's try at a whole answer ({@code whole}), the {@code continued}-th continuation of it (0: none;
     * {@code joined} then runs at its first byte).
     */
    private Attempt<ObjectNode> wholeAttempt(Progress.Decided decided, DispatchTrace trace, Attempt.Call call,
            WholeAnswer whole, NodeRegistration node, int continued, Runnable joined) {
        AtomicBoolean got = new AtomicBoolean();
        // collect, not doOnNext(...).then(...): then discards every chunk, looking up the subscriber's context each time
        return new Attempt<>(call, upstream -> upstream
                .collect(() -> whole, (assembling, chunk) -> {
                    if (got.compareAndSet(false, true) && joined != null) {
                        joined.run();
                    }
                    assembling.onChunk(chunk);
                })
                .map(assembled -> {
                    ObjectNode answer = assembled.onEnd();
                    if (answer == null) {
                        throw UpstreamFailure.of(assembled.nodeError() != null ? "upstream_error_event"
                                : "upstream_incomplete");
                    }
                    return answer;
                }).flux()
                .onErrorMap(e -> broken(e, decided, trace, whole, node, continued, got.get())), Flux::error, whole);
    }

    /**
     * A whole answer's node failing: broken after its first token and able to go on ({@link BrokenWhole}); a
     * continuation broken past going on (never tried afresh elsewhere: its assembler holds the text before); else the
     * failure as it was (before the first token, or not continuable: the next node answers afresh).
     */
    private Throwable broken(Throwable e, Progress.Decided decided, DispatchTrace trace, WholeAnswer whole,
            NodeRegistration node, int continued, boolean got) {
        if (!(e instanceof UpstreamFailure failure) || !failure.bypassable() || !got) {
            return e;
        }
        Continuation policy = tierLimits(decided).continuation();
        Transcript transcript = whole.transcript();
        Transcript.Resume resume = transcript == null ? null : transcript.resume();
        List<String> rest = resume instanceof Transcript.Go && policy.on() && continued < policy.maxPerRequest()
                && Continuations.refusal(decided.request()) == null
                ? remaining(decided, trace, node, policy.nextTier()) : List.of();
        if (!rest.isEmpty()) {
            return new BrokenWhole(failure.reason(), whole, node, continued, (Transcript.Go) resume, rest);
        }
        if (continued > 0) {
            String why = continued >= policy.maxPerRequest() ? "continuation_limit"
                    : rest.isEmpty() && resume instanceof Transcript.Go ? "no_node_left" : "not_continuable";
            note(trace, new Recovery(Recovery.Kind.NOT_CONTINUED, node.nodeId(), null, whole.outputTokens(), why,
                    0));
            return new UpstreamFailure(failure.reason(), 0, false, null);
        }
        return e;
    }

    /** The rest of a broken whole answer from the next node of the tier that serves it. */
    private Mono<ObjectNode> goOn(Progress.Decided decided, DispatchTrace trace, Answers answers,
            BrokenWhole broken) {
        long brokeAt = System.nanoTime();
        AtomicBoolean joined = new AtomicBoolean();
        Transcript.Go go = broken.go;
        Dispatcher.Limits limits = limits(decided, Duration.ofNanos(brokeAt - trace.startNanos()));
        return dispatcher.dispatch(broken.rest, router::registration, next -> wholeAttempt(decided, trace,
                        call(decided, next, go), answers.continuation(next.protocol(), broken.whole, go), next,
                        broken.continued + 1, () -> {
                            joined.set(true);
                            note(trace, new Recovery(Recovery.Kind.CONTINUED, broken.node.nodeId(), next.nodeId(),
                                    go.sentTokens(), broken.reason(), (System.nanoTime() - brokeAt) / 1_000_000));
                        }), limits, trace)
                .next()
                .onErrorResume(BrokenWhole.class, again -> goOn(decided, trace, answers, again))
                .doOnError(e -> {
                    if (!joined.get()) {
                        note(trace, new Recovery(Recovery.Kind.NOT_CONTINUED, broken.node.nodeId(), null,
                                go.sentTokens(), "no_node_continued", 0));
                    }
                })
                // a continuation broken past going on: no node could serve the rest (the client saw none of it)
                .onErrorMap(e -> e instanceof UpstreamFailure failure && !failure.bypassable(),
                        e -> UpstreamFailure.of(Dispatcher.reasonOf(e)));
    }

    /** A whole answer broken after its first token that can go on elsewhere: from what, where and how far. */
    private static final class BrokenWhole extends UpstreamFailure {

        private final transient WholeAnswer whole;
        private final transient NodeRegistration node;
        private final int continued;
        private final transient Transcript.Go go;
        private final transient List<String> rest;

        BrokenWhole(String reason, WholeAnswer whole, NodeRegistration node, int continued, Transcript.Go go,
                List<String> rest) {
            super(reason, 0, false, null);
            this.whole = whole;
            this.node = node;
            this.continued = continued;
            this.go = go;
            this.rest = rest;
        }
    }

    /**
     * A streamed answer: the response commits with the first client event (route headers set then); a failure before
     * it becomes an ordinary error response (the node's 4xx as it was, else 529/504); a node that breaks the stream
     * after it is continued on the next node of the tier when the policy lets it and the answer allows it (else the
     * stream ends with the API's error event).
     */
    Reply stream(Progress.Decided decided, HttpServerResponse response) {
        DispatchTrace trace = new DispatchTrace();
        Progress.Dispatched started = Progress.Dispatched.started(decided, trace);
        Continuation continuation = tierLimits(decided).continuation();
        Answers answers = answers(decided, trace, continuation.on());
        Flux<ByteBuf> body = Flux.defer(() -> {
                    boolean[] first = {true};
                    return dispatch(decided, trace, node -> streamAttempt(decided, trace, answers,
                            call(decided, node, null), answers.stream(node.protocol()), node, 0))
                            .map(bytes -> {
                                if (first[0]) {
                                    first[0] = false;
                                    metrics.ttfb(trace.ttfbNanos());
                                    Replies.routeHeaders(started, response.responseHeaders());
                                }
                                return Unpooled.wrappedBuffer(bytes);
                            });
                })
                .doOnComplete(() -> {
                    if (trace.servedAnswer() instanceof StreamAnswer served) {
                        outcomes.record(new Progress.Dispatched(decided, trace,
                                new Progress.Usage(served.inputTokens(), served.outputTokens()), decided.refusal()),
                                served.failed() ? DecisionStatus.STREAM_FAILED : DecisionStatus.OK, 200);
                    }
                })
                .doOnCancel(() -> outcomes.record(started, DecisionStatus.STREAM_FAILED, 499))
                .onErrorResume(e -> {
                    // nothing was sent yet: the API's error instead of an event stream
                    Failures.Failure failure = Failures.of(e, decided.arrival().api());
                    outcomes.record(started, failure.status(), failure.http());
                    response.status(failure.http());
                    response.responseHeaders().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
                    Replies.fallbackHeader(started, response.responseHeaders());
                    return Mono.just(Unpooled.wrappedBuffer(failure.body()));
                });
        HttpHeaders headers = new DefaultHttpHeaders();
        headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_EVENT_STREAM);
        headers.set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        Replies.ids(decided.arrival(), headers);
        return new Reply(200, headers, body);
    }

    /** One node's try at the client's stream ({@code answer}), the {@code continued}-th continuation of it (0: none). */
    private Attempt<byte[]> streamAttempt(Progress.Decided decided, DispatchTrace trace, Answers answers,
            Attempt.Call call, StreamAnswer answer, NodeRegistration node, int continued) {
        return new Attempt<>(call, upstream -> shaped(upstream, answer),
                e -> afterBreak(e, decided, trace, answers, answer, node, continued), answer);
    }

    /** Marks the node's end in its chunks (never one of them: compared by identity). */
    private static final byte[] END = new byte[0];

    /** A node's chunks as the client's bytes, and its breaking the answer as an error after the bytes before it. */
    static Flux<byte[]> shaped(Flux<byte[]> upstream, StreamAnswer answer) {
        // map / takeUntil / filter, not handle: handle restores the thread-locals around every chunk
        return upstream.concatWith(Mono.just(END))
                .map(chunk -> chunk == END ? answer.onEnd() : answer.onChunk(chunk))
                .takeUntil(bytes -> answer.brokeOff() != null)
                .filter(bytes -> bytes.length > 0)
                .concatWith(Mono.defer(() -> {
                    UpstreamFailure broke = answer.brokeOff();
                    return broke == null ? Mono.empty() : Mono.error(broke);
                }));
    }

    /**
     * What follows a node breaking the stream it began: the stream's end when only that was missing; else the answer
     * continued on the next node of the tier that can serve it (the text sent as its prefilled start) when the policy
     * allows one more and the answer can go on; else the API's error event. The decision event gets which it was.
     */
    private Flux<byte[]> afterBreak(Throwable e, Progress.Decided decided, DispatchTrace trace, Answers answers,
            StreamAnswer broken, NodeRegistration node, int continued) {
        String reason = Dispatcher.reasonOf(e);
        Transcript transcript = broken.transcript();
        Transcript.Resume resume = transcript == null ? new Transcript.Cannot("not_kept") : transcript.resume();
        int offset = resume instanceof Transcript.Go go ? go.sentTokens() : broken.outputTokens();
        if (resume instanceof Transcript.Close) {
            note(trace, new Recovery(Recovery.Kind.CLOSED, node.nodeId(), null, offset, reason, 0));
            return Flux.just(broken.close());
        }
        Continuation policy = tierLimits(decided).continuation();
        String cannot = !policy.on() ? "continuation_off"
                : continued >= policy.maxPerRequest() ? "continuation_limit"
                : e instanceof ApiException ? "answer_deadline"
                : resume instanceof Transcript.Cannot no ? no.reason()
                : Continuations.refusal(decided.request());
        List<String> rest = cannot == null ? remaining(decided, trace, node, policy.nextTier()) : List.of();
        if (cannot == null && rest.isEmpty()) {
            cannot = "no_node_left";
        }
        if (cannot != null) {
            note(trace, new Recovery(Recovery.Kind.NOT_CONTINUED, node.nodeId(), null, offset, cannot, 0));
            return ended(broken, e);
        }
        Transcript.Go go = (Transcript.Go) resume;
        long brokeAt = System.nanoTime();
        AtomicBoolean joined = new AtomicBoolean();
        Dispatcher.Limits limits = limits(decided, Duration.ofNanos(brokeAt - trace.startNanos()));
        return dispatcher.dispatch(rest, router::registration, next -> streamAttempt(decided, trace, answers,
                        call(decided, next, go), answers.continuation(next.protocol(), transcript, go), next,
                        continued + 1), limits, trace)
                .doOnNext(bytes -> {
                    if (joined.compareAndSet(false, true)) {
                        note(trace, new Recovery(Recovery.Kind.CONTINUED, node.nodeId(), trace.servedNode(),
                                offset, reason, (System.nanoTime() - brokeAt) / 1_000_000));
                    }
                })
                .onErrorResume(failure -> !joined.get(), failure -> {
                    note(trace, new Recovery(Recovery.Kind.NOT_CONTINUED, node.nodeId(), null, offset,
                            "no_node_continued", 0));
                    return ended(broken, e);
                });
    }

    private void note(DispatchTrace trace, Recovery recovery) {
        trace.recovered(recovery);
        metrics.recovered(recovery.kind().name().toLowerCase(java.util.Locale.ROOT),
                recovery.kind() == Recovery.Kind.NOT_CONTINUED ? recovery.reason() : "-");
    }

    private Flux<byte[]> ended(StreamAnswer broken, Throwable e) {
        return Flux.just(broken.onFailure(failureMessage(e))).filter(bytes -> bytes.length > 0);
    }

    /** The decision's nodes not tried yet, of the tier that began the answer (any tier when {@code anyTier}). */
    private List<String> remaining(Progress.Decided decided, DispatchTrace trace, NodeRegistration broke,
            boolean anyTier) {
        List<String> tried = trace.tried();
        List<String> rest = new ArrayList<>();
        for (String id : decided.routed().decision().ranked()) {
            if (tried.contains(id)) {
                continue;
            }
            Optional<NodeRegistration> node = router.registration(id);
            if (node.isPresent() && (anyTier || Objects.equals(node.get().tier(), broke.tier()))) {
                rest.add(id);
            }
        }
        return rest;
    }

    private static String failureMessage(Throwable e) {
        return e instanceof ApiException api ? api.getMessage() : "the upstream node failed mid-stream";
    }

    /** Dispatches over the decision's ranked nodes, each attempt shaped by {@code attempt} for its node. */
    private <T> Flux<T> dispatch(Progress.Decided decided, DispatchTrace trace,
            Function<NodeRegistration, Attempt<T>> attempt) {
        return dispatcher.dispatch(decided.routed().decision().ranked(), router::registration, attempt,
                limits(decided, Duration.ZERO), trace);
    }

    /**
     * The explanation with what would save this request's answer: its tier's continuation policy and the hedge delay
     * its first node would get (null when it would not be hedged).
     */
    ObjectNode withRecovery(Progress.Decided decided, ObjectNode explanation) {
        TierLimits limits = tierLimits(decided);
        ObjectNode recovery = explanation.putObject("recovery");
        recovery.put("continuation", limits.continuation().on())
                .put("max_continuations", limits.continuation().maxPerRequest())
                .put("chunk_gap_ms", limits.chunkGapMs());
        Dispatcher.HedgePlan plan = limits(decided, Duration.ZERO).hedge();
        String node = decided.routed().decision().node();
        long delay = node == null || decided.routed().decision().ranked().size() < 2 ? -1
                : dispatcher.hedgeDelayNanos(plan, node);
        recovery.put("hedge", plan.policy().enabled());
        if (delay > 0) {
            recovery.put("hedge_delay_ms", delay / 1e6);
        } else {
            recovery.putNull("hedge_delay_ms");
        }
        recovery.put("hedge_budget_percent", plan.policy().budgetPercent());
        return explanation;
    }

    /** The tier's limits for the decided request (defaults when the policy names none). */
    private TierLimits tierLimits(Progress.Decided decided) {
        RouteDecision decision = decided.routed().decision();
        PolicyDocument document = policy.documentFor(decided.keyId());
        TierLimits limits = decision.tier() == null ? null : document.limits().get(decision.tier());
        return limits == null ? DEFAULT_LIMITS : limits;
    }

    /**
     * The dispatch limits: a first token within the tier's deadline from {@code from} (the request's start, or the
     * moment a continuation begins), the whole answer within its deadline from the start.
     */
    private Dispatcher.Limits limits(Progress.Decided decided, Duration from) {
        TierLimits limits = tierLimits(decided);
        int maxTokens = decided.request().maxOutputTokens() > 0 ? decided.request().maxOutputTokens()
                : ChatToAnthropic.DEFAULT_MAX_TOKENS;
        Duration answer = Duration.ofMillis(limits.answerDeadlineMs(maxTokens));
        Duration firstToken = from.plusMillis(limits.deadlineMs());
        // a continuation is never hedged: the client is already waiting on the seam, and the budget is the tier's
        Dispatcher.HedgePlan hedge = from.isZero()
                ? new Dispatcher.HedgePlan(limits.hedge(), decided.routed().decision().tier(),
                        decided.routed().tokenCount())
                : Dispatcher.HedgePlan.NONE;
        return new Dispatcher.Limits(policy.document().resilience(), Duration.ofMillis(limits.ttfbLimitMs()),
                firstToken.compareTo(answer) > 0 && !from.isZero() ? answer : firstToken, answer,
                Duration.ofMillis(limits.chunkGapMs()), hedge);
    }

    /**
     * The call to one node: its protocol's path (the client's query string too when it speaks the client's API); for a
     * continuation ({@code go} not null) the body asks it to go on from the text sent.
     */
    private Attempt.Call call(Progress.Decided decided, NodeRegistration node, Transcript.Go go) {
        boolean same = decided.request().api().nativeTo(node.protocol());
        String path = decided.upstream().path(node.protocol());
        String query = decided.arrival().query();
        if (same && query != null && !query.isEmpty()) {
            path = path + "?" + query;
        }
        Map<String, String> extra = tracing.headers(decided.arrival().span());
        Map.Entry<String, String> credential = credentials.header(node.credentialRef());
        if (credential != null) {
            extra = new LinkedHashMap<>(extra);
            extra.put(credential.getKey(), credential.getValue());
        }
        byte[] body = decided.upstream().body(node.protocol(), node.model());
        if (go != null) {
            body = Continuations.body(body, node.protocol(), go);
        }
        return new Attempt.Call(path, body, decided.forwarded().forNode(decided.request().api(), node.protocol(),
                extra));
    }

    private Answers answers(Progress.Decided decided, DispatchTrace trace, boolean keep) {
        Progress.Arrival arrival = decided.arrival();
        return new Answers(arrival.api(), decided.request().model(),
                arrival.traceBody() ? () -> Outcomes.debug(Progress.Dispatched.started(decided, trace)) : null,
                decided.routed().tokenCount(), decided.upstream().clientWantsStreamUsage(), decided.request().body(),
                responseItems.forKey(decided.keyId()), keep);
    }
}
