package dev.zerolayer.router.api;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.answer.Answers;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.answer.StreamAnswer;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dispatch stage: a decided request sent over its ranked nodes (nodes are always asked to stream), as a whole
 * answer assembled here (never partial) or as the client's stream, which commits with its first event.
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

    /** A whole answer: assembled from the serving node's stream, or an error carrying the dispatch so far. */
    Mono<Answered> whole(Progress.Decided decided) {
        DispatchTrace trace = new DispatchTrace();
        Answers answers = answers(decided, trace);
        return dispatch(decided, trace, node -> {
            WholeAnswer whole = answers.whole(node.protocol());
            return new Attempt<ObjectNode>(call(decided, node), upstream -> upstream
                    .doOnNext(whole::onChunk)
                    .then(Mono.fromCallable(() -> {
                        ObjectNode answer = whole.onEnd();
                        if (answer == null) {
                            throw UpstreamFailure.of(whole.nodeError() != null ? "upstream_error_event"
                                    : "upstream_incomplete");
                        }
                        return answer;
                    })).flux(), Flux::error, whole);
        }).next().map(body -> {
            WholeAnswer served = (WholeAnswer) trace.servedAnswer();
            metrics.ttfb(trace.ttfbNanos());
            return new Answered(new Progress.Dispatched(decided, trace,
                    new Progress.Usage(served.inputTokens(), served.outputTokens()), decided.refusal()), body);
        }).onErrorMap(e -> !(e instanceof Progress.Failed),
                e -> new Progress.Failed(Progress.Dispatched.started(decided, trace), e));
    }

    /**
     * A streamed answer: the response commits with the first client event (route headers set then); a failure before
     * it becomes an ordinary error response (the node's 4xx as it was, else 529/504), a failure after it ends the
     * stream with the API's error event.
     */
    Mono<ServerResponse> stream(Progress.Decided decided, ServerHttpResponse response) {
        DispatchTrace trace = new DispatchTrace();
        Progress.Dispatched started = Progress.Dispatched.started(decided, trace);
        Answers answers = answers(decided, trace);
        Flux<DataBuffer> body = Flux.defer(() -> dispatch(decided, trace, node -> {
                    StreamAnswer answer = answers.stream(node.protocol());
                    return new Attempt<byte[]>(call(decided, node), upstream -> upstream
                            .map(answer::onChunk)
                            .concatWith(Mono.fromCallable(answer::onEnd))
                            .filter(bytes -> bytes.length > 0),
                            e -> Flux.just(answer.onFailure(failureMessage(e))).filter(bytes -> bytes.length > 0),
                            answer);
                })
                .index()
                .map(indexed -> {
                    if (indexed.getT1() == 0) {
                        metrics.ttfb(trace.ttfbNanos());
                        Replies.routeHeaders(started, response.getHeaders());
                    }
                    return response.bufferFactory().wrap(indexed.getT2());
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
                    response.setStatusCode(HttpStatusCode.valueOf(failure.http()));
                    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
                    Replies.fallbackHeader(started, response.getHeaders());
                    return Mono.just(response.bufferFactory().wrap(failure.body()));
                }));
        return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache")
                .header(ZeroLayerHeaders.TRACE_ID, decided.arrival().traceId())
                .header(Replies.REQUEST_ID, decided.arrival().requestId())
                .body(BodyInserters.fromDataBuffers(body));
    }

    private static String failureMessage(Throwable e) {
        return e instanceof ApiException api ? api.getMessage() : "the upstream node failed mid-stream";
    }

    /** Dispatches over the decision's ranked nodes, each attempt shaped by {@code attempt} for its node. */
    private <T> Flux<T> dispatch(Progress.Decided decided, DispatchTrace trace,
            Function<NodeRegistration, Attempt<T>> attempt) {
        RouteDecision decision = decided.routed().decision();
        PolicyDocument document = policy.documentFor(decided.keyId());
        TierLimits limits = decision.tier() == null ? null : document.limits().get(decision.tier());
        if (limits == null) {
            limits = DEFAULT_LIMITS;
        }
        int maxTokens = decided.request().maxOutputTokens() > 0 ? decided.request().maxOutputTokens()
                : ChatToAnthropic.DEFAULT_MAX_TOKENS;
        Dispatcher.Limits bounds = new Dispatcher.Limits(policy.document().resilience(),
                Duration.ofMillis(limits.ttfbLimitMs()), Duration.ofMillis(limits.deadlineMs()),
                Duration.ofMillis(limits.answerDeadlineMs(maxTokens)));
        return dispatcher.dispatch(decision.ranked(), router::registration, attempt, bounds, trace);
    }

    /** The call to one node: its protocol's path (the client's query string too when it speaks the client's API). */
    private Attempt.Call call(Progress.Decided decided, NodeRegistration node) {
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
        return new Attempt.Call(path, decided.upstream().body(node.protocol(), node.model()),
                decided.forwarded().forNode(decided.request().api(), node.protocol(), extra));
    }

    private Answers answers(Progress.Decided decided, DispatchTrace trace) {
        Progress.Arrival arrival = decided.arrival();
        return new Answers(arrival.api(), decided.request().model(),
                arrival.traceBody() ? () -> Outcomes.debug(Progress.Dispatched.started(decided, trace)) : null,
                decided.routed().tokenCount(), decided.upstream().clientWantsStreamUsage(), decided.request().body(),
                responseItems::remember);
    }
}
