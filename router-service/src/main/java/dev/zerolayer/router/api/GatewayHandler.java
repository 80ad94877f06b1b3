package dev.zerolayer.router.api;

import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.answer.Answers;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.answer.StreamAnswer;
import dev.zerolayer.router.answer.WholeAnswer;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.Attempt;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.NodeCredentials;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.SessionKeys;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.router.translate.ChatToAnthropic;
import dev.zerolayer.router.translate.UpstreamBodies;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.ForwardedHeaders;
import dev.zerolayer.router.wire.RequestParser;
import dev.zerolayer.routing.decision.RouteDecision;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client APIs: authenticate and rate-limit, read and validate the body, decide, then dispatch (or explain, or
 * count); nodes are always asked to stream, and a client that wants a whole answer gets it assembled here. Every
 * response carries the trace id, route and fallback headers as asked, every outcome one decision event, and every error
 * the API's own shape and status (a node's own refusal of the request is passed on as its status and message).
 */
public class GatewayHandler {

    private static final Logger log = LoggerFactory.getLogger(GatewayHandler.class);
    /** The request id header (as the Anthropic API sends it); the decision event is keyed by it. */
    public static final String REQUEST_ID = "request-id";
    private static final TierLimits DEFAULT_LIMITS = new TierLimits(4_000, 60_000);
    /** Bodies larger than this are parsed and counted off the event loop. */
    private static final int LARGE_BODY = 256 * 1024;

    /** What a request asks the gateway to do. */
    enum Mode { DISPATCH, EXPLAIN, COUNT }

    private final ApiKeyAuthenticator authenticator;
    private final RateLimits rateLimits;
    private final RequestRouter router;
    private final Dispatcher dispatcher;
    private final ActivePolicy policy;
    private final CompactedView<SessionEntry> sessions;
    private final DecisionPublisher publisher;
    private final GatewayMetrics metrics;
    private final RequestBodies bodies;
    private final RequestTracing tracing;
    private final ResponseItems responseItems;
    private final NodeCredentials credentials;

    public GatewayHandler(ApiKeyAuthenticator authenticator, RateLimits rateLimits, RequestRouter router,
            Dispatcher dispatcher, ActivePolicy policy, CompactedView<SessionEntry> sessions,
            DecisionPublisher publisher, GatewayMetrics metrics, long maxBodyBytes, RequestTracing tracing,
            ResponseItems responseItems, NodeCredentials credentials) {
        this.credentials = credentials;
        this.tracing = tracing;
        this.authenticator = authenticator;
        this.rateLimits = rateLimits;
        this.router = router;
        this.dispatcher = dispatcher;
        this.policy = policy;
        this.sessions = sessions;
        this.publisher = publisher;
        this.metrics = metrics;
        this.bodies = new RequestBodies(maxBodyBytes);
        this.responseItems = responseItems;
    }

    public Mono<ServerResponse> messages(ServerRequest request) {
        return handle(request, ClientApi.ANTHROPIC, Mode.DISPATCH);
    }

    public Mono<ServerResponse> chatCompletions(ServerRequest request) {
        return handle(request, ClientApi.OPENAI, Mode.DISPATCH);
    }

    public Mono<ServerResponse> responses(ServerRequest request) {
        return handle(request, ClientApi.RESPONSES, Mode.DISPATCH);
    }

    public Mono<ServerResponse> completions(ServerRequest request) {
        return handle(request, ClientApi.COMPLETIONS, Mode.DISPATCH);
    }

    public Mono<ServerResponse> countTokens(ServerRequest request) {
        return handle(request, ClientApi.ANTHROPIC, Mode.COUNT);
    }

    public Mono<ServerResponse> explain(ServerRequest request) {
        return handle(request, ClientApi.ANTHROPIC, Mode.EXPLAIN);
    }

    private Mono<ServerResponse> handle(ServerRequest http, ClientApi api, Mode mode) {
        HttpHeaders headers = http.headers().asHttpHeaders();
        RequestScope scope = new RequestScope(api, tracing.start(headers),
                ZeroLayerHeaders.DEBUG_ROUTE_VALUE.equals(headers.getFirst(ZeroLayerHeaders.DEBUG)),
                "true".equalsIgnoreCase(headers.getFirst(ZeroLayerHeaders.TRACE)));
        return Mono.defer(() -> {
            InetSocketAddress remote = http.remoteAddress().orElse(null);
            scope.keyId = authenticator.authenticate(headers.getFirst(ZeroLayerHeaders.API_KEY),
                    headers.getFirst(ZeroLayerHeaders.AUTHORIZATION), remote);
            rateLimits.acquire(scope.keyId);
            String pin = pin(headers);
            checkContentType(headers);
            return bodies.read(http).flatMap(bytes -> bytes.length > LARGE_BODY
                    // a large body's parsing and token counting would hold the event loop: done on a worker
                    ? Mono.defer(() -> serve(http, headers, scope, api, mode, pin, remote, bytes))
                            .subscribeOn(Schedulers.boundedElastic())
                    : serve(http, headers, scope, api, mode, pin, remote, bytes));
        }).onErrorResume(e -> errorResponse(scope, e));
    }

    /** A request whose body has been read: parse, count or route, then explain or dispatch. */
    private Mono<ServerResponse> serve(ServerRequest http, HttpHeaders headers, RequestScope scope, ClientApi api,
            Mode mode, String pin, InetSocketAddress remote, byte[] bytes) {
        scope.bodyRead = true;
        ClientRequest request = parse(api, mode, bytes);
        scope.request = request;
        scope.sessionHash = SessionKeys.sessionHash(headers.getFirst(ZeroLayerHeaders.SESSION_ID),
                request.userId(), scope.keyId, remote == null ? "unknown" : remote.getHostString());
        if (mode == Mode.COUNT) {
            return countResponse(scope, request);
        }
        UpstreamBodies upstream = new UpstreamBodies(request);
        String sticky = sessions.get(scope.sessionHash).map(SessionEntry::stickyNode).orElse(null);
        Routed routed = router.route(request, upstream, pin, sticky, scope.keyId);
        scope.routed = routed;
        metrics.routed(routed.decision().tier(), routed.decision().cluster(), routed.routeNanos());
        if (mode == Mode.EXPLAIN) {
            return explainResponse(scope);
        }
        if (!routed.decision().servable()) {
            if (routed.blocked() != null) {
                return Mono.error(ApiException.invalid(routed.blocked().describe(api == ClientApi.ANTHROPIC
                        ? "OpenAI" : "Anthropic") + ", and no node speaking the client's API can serve "
                        + "the request now"));
            }
            return Mono.error(ApiException.overloaded("no node can serve the request right now"));
        }
        Call call = new Call(request, upstream, ForwardedHeaders.of(headers), http.uri().getRawQuery());
        return request.stream() ? stream(http, scope, call) : whole(scope, call);
    }

    /** What one dispatched request needs for its attempts: the request, its upstream bodies, headers, query. */
    private record Call(ClientRequest request, UpstreamBodies upstream, ForwardedHeaders headers, String query) {
    }

    private ClientRequest parse(ClientApi api, Mode mode, byte[] bytes) {
        if (mode == Mode.COUNT) {
            return RequestParser.anthropic(bytes, false);
        }
        if (api == ClientApi.RESPONSES) {
            ObjectNode body = RequestParser.object(bytes);
            responseItems.resolve(body);
            return RequestParser.responses(body);
        }
        return RequestParser.parse(api, bytes);
    }

    private static String pin(HttpHeaders headers) {
        String pin = headers.getFirst(ZeroLayerHeaders.ROUTING_PRIORITY);
        if (pin == null) {
            return null;
        }
        if (!ZeroLayerHeaders.PRIORITY_VALUES.contains(pin)) {
            throw ApiException.invalid(ZeroLayerHeaders.ROUTING_PRIORITY + " must be one of "
                    + String.join("|", ZeroLayerHeaders.PRIORITY_VALUES));
        }
        return pin;
    }

    private static void checkContentType(HttpHeaders headers) {
        MediaType type;
        try {
            type = headers.getContentType();
        } catch (RuntimeException e) {
            throw new ApiException(415, "invalid_request_error", "unreadable Content-Type; expected application/json");
        }
        if (type != null && !(type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json")))) {
            throw new ApiException(415, "invalid_request_error",
                    "unsupported Content-Type " + type.getType() + "/" + type.getSubtype() + "; expected application/json");
        }
    }

    private Mono<ServerResponse> countResponse(RequestScope scope, ClientRequest request) {
        ObjectNode body = EventCodec.mapper().createObjectNode().put("input_tokens", router.countTokens(request));
        finish(scope, DecisionStatus.EXPLAINED, 200);
        return json(scope, 200, body);
    }

    private Mono<ServerResponse> explainResponse(RequestScope scope) {
        ObjectNode body = Explanations.of(scope.requestId, scope.routed);
        finish(scope, DecisionStatus.EXPLAINED, 200);
        return json(scope, 200, body);
    }

    private TierLimits limits(RequestScope scope, String tier) {
        PolicyDocument document = policy.documentFor(scope.keyId);
        TierLimits limits = tier == null ? null : document.limits().get(tier);
        return limits == null ? DEFAULT_LIMITS : limits;
    }

    /** Dispatches over the decision's ranked nodes, each attempt shaped by {@code attempt} for its node. */
    private <T> Flux<T> dispatch(RequestScope scope, java.util.function.Function<NodeRegistration, Attempt<T>> attempt) {
        DispatchTrace trace = new DispatchTrace();
        scope.dispatch = trace;
        RouteDecision decision = scope.routed.decision();
        TierLimits limits = limits(scope, decision.tier());
        int maxTokens = scope.request.maxOutputTokens() > 0 ? scope.request.maxOutputTokens()
                : ChatToAnthropic.DEFAULT_MAX_TOKENS;
        Dispatcher.Limits bounds = new Dispatcher.Limits(policy.document().resilience(),
                Duration.ofMillis(limits.ttfbLimitMs()), Duration.ofMillis(limits.deadlineMs()),
                Duration.ofMillis(limits.answerDeadlineMs(maxTokens)));
        return dispatcher.dispatch(decision.ranked(), router::registration, attempt, bounds, trace);
    }

    /** The call to one node: its protocol's path (the client's query string too when it speaks the client's API). */
    private Attempt.Call upstreamCall(RequestScope scope, Call call, NodeRegistration node) {
        boolean same = call.request().api().nativeTo(node.protocol());
        String path = call.upstream().path(node.protocol());
        if (same && call.query() != null && !call.query().isEmpty()) {
            path = path + "?" + call.query();
        }
        Map<String, String> extra = tracing.headers(scope.span);
        Map.Entry<String, String> credential = credentials.header(node.credentialRef());
        if (credential != null) {
            extra = new java.util.LinkedHashMap<>(extra);
            extra.put(credential.getKey(), credential.getValue());
        }
        return new Attempt.Call(path, call.upstream().body(node.protocol(), node.model()),
                call.headers().forNode(call.request().api(), node.protocol(), extra));
    }

    private Answers answers(RequestScope scope, Call call) {
        return new Answers(scope.api, call.request().model(), scope.traceBody ? scope::debugObject : null,
                scope.routed.tokenCount(), call.upstream().clientWantsStreamUsage(), call.request().body(),
                responseItems::remember);
    }

    /** A whole answer: assembled from the node's stream, or an error; never partial. */
    private Mono<ServerResponse> whole(RequestScope scope, Call call) {
        Answers answers = answers(scope, call);
        return dispatch(scope, node -> {
            WholeAnswer whole = answers.whole(node.protocol());
            return new Attempt<ObjectNode>(upstreamCall(scope, call, node), upstream -> upstream
                    .doOnNext(whole::onChunk)
                    .then(Mono.fromCallable(() -> {
                        ObjectNode answer = whole.onEnd();
                        if (answer == null) {
                            throw UpstreamFailure.of(whole.nodeError() != null ? "upstream_error_event"
                                    : "upstream_incomplete");
                        }
                        return answer;
                    })).flux(), Flux::error, whole);
        }).next().flatMap(body -> {
            WholeAnswer served = (WholeAnswer) scope.dispatch.servedAnswer();
            scope.inputTokens = served.inputTokens();
            scope.outputTokens = served.outputTokens();
            metrics.ttfb(scope.dispatch.ttfbNanos());
            RefusalFallback refusal = policy.documentFor(scope.keyId).refusalFallback();
            if (refusal.mode() != RefusalFallback.Mode.OFF && scope.refusalHandling == null
                    && Refusals.isRefusal(scope.api, body)) {
                if (refusal.mode() == RefusalFallback.Mode.ANNOTATE) {
                    scope.refusalHandling = "annotated";
                    Refusals.annotate(scope.api, body, refusal.prefix());
                } else {
                    return retryOnNextTier(scope, call, body);
                }
            }
            return answer(scope, body);
        });
    }

    private Mono<ServerResponse> answer(RequestScope scope, ObjectNode body) {
        if (scope.traceBody) {
            body.set("debug", scope.debugObject());
        }
        finish(scope, DecisionStatus.OK, 200);
        return json(scope, 200, body);
    }

    /**
     * Refusal fallback (policy {@code refusalFallback.mode: retry_next_tier}): the request once more on the next tier of
     * the served tier's chain; when that tier cannot serve or fails, the first answer is returned as it was.
     */
    private Mono<ServerResponse> retryOnNextTier(RequestScope scope, Call call, ObjectNode refused) {
        scope.refusalHandling = "kept";
        String served = scope.tier();
        List<String> chain = policy.documentFor(scope.keyId).chains().getOrDefault(served, List.of());
        String next = chain.stream().filter(tier -> !tier.equals(served)).findFirst().orElse(null);
        if (next == null) {
            return answer(scope, refused);
        }
        Routed retry = router.route(call.request(), call.upstream(), next, null, scope.keyId);
        if (!retry.decision().servable()) {
            return answer(scope, refused);
        }
        Routed first = scope.routed;
        DispatchTrace firstTrace = scope.dispatch;
        scope.routed = retry;
        scope.refusalHandling = "retried:" + served + "->" + next;
        return whole(scope, call).onErrorResume(e -> {
            scope.routed = first;
            scope.dispatch = firstTrace;
            scope.refusalHandling = "kept";
            return answer(scope, refused);
        });
    }

    /**
     * Streaming: the response commits with the first client event (route headers set then); a failure before it
     * becomes an ordinary error response (the node's 4xx as it was, else 529/504), a failure after it ends the stream
     * with the API's error event.
     */
    private Mono<ServerResponse> stream(ServerRequest http, RequestScope scope, Call call) {
        ServerHttpResponse response = http.exchange().getResponse();
        Answers answers = answers(scope, call);
        Flux<DataBuffer> body = Flux.defer(() -> dispatch(scope, node -> {
                    StreamAnswer answer = answers.stream(node.protocol());
                    return new Attempt<byte[]>(upstreamCall(scope, call, node), upstream -> upstream
                            .map(answer::onChunk)
                            .concatWith(Mono.fromCallable(answer::onEnd))
                            .filter(bytes -> bytes.length > 0),
                            e -> Flux.just(answer.onFailure(failureMessage(e))).filter(bytes -> bytes.length > 0),
                            answer);
                })
                .index()
                .map(indexed -> {
                    if (indexed.getT1() == 0) {
                        metrics.ttfb(scope.dispatch.ttfbNanos());
                        routeHeaders(scope, response.getHeaders());
                    }
                    return response.bufferFactory().wrap(indexed.getT2());
                })
                .doOnComplete(() -> {
                    StreamAnswer served = (StreamAnswer) scope.dispatch.servedAnswer();
                    if (served != null) {
                        scope.inputTokens = served.inputTokens();
                        scope.outputTokens = served.outputTokens();
                        finish(scope, served.failed() ? DecisionStatus.STREAM_FAILED : DecisionStatus.OK, 200);
                    }
                })
                .doOnCancel(() -> finish(scope, DecisionStatus.STREAM_FAILED, 499))
                .onErrorResume(e -> {
                    // nothing was sent yet: the API's error instead of an event stream
                    Failures.Failure failure = Failures.of(e, scope.api);
                    finish(scope, failure.status(), failure.http());
                    response.setStatusCode(HttpStatusCode.valueOf(failure.http()));
                    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
                    fallbackHeader(scope, response.getHeaders());
                    return Mono.just(response.bufferFactory().wrap(failure.body()));
                }));
        return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache")
                .header(ZeroLayerHeaders.TRACE_ID, scope.traceId)
                .header(REQUEST_ID, scope.requestId)
                .body(BodyInserters.fromDataBuffers(body));
    }

    private static String failureMessage(Throwable e) {
        return e instanceof ApiException api ? api.getMessage() : "the upstream node failed mid-stream";
    }

    private void routeHeaders(RequestScope scope, HttpHeaders headers) {
        if (scope.debugRoute) {
            headers.set(ZeroLayerHeaders.ROUTE, scope.tier() + "/" + scope.cluster() + "/" + scope.node());
        }
        fallbackHeader(scope, headers);
    }

    private static void fallbackHeader(RequestScope scope, HttpHeaders headers) {
        String reason = scope.fallbackReason();
        if (reason != null) {
            headers.set(ZeroLayerHeaders.FALLBACK_REASON, reason);
        }
    }

    private Mono<ServerResponse> json(RequestScope scope, int status, JsonNode body) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON)
                .header(ZeroLayerHeaders.TRACE_ID, scope.traceId)
                .header(REQUEST_ID, scope.requestId)
                .headers(headers -> {
                    if (scope.routed != null && scope.routed.decision().servable()) {
                        routeHeaders(scope, headers);
                    }
                })
                .bodyValue(EventCodec.mapper().writeValueAsBytes(body));
    }

    private Mono<ServerResponse> errorResponse(RequestScope scope, Throwable e) {
        Failures.Failure failure = Failures.of(e, scope.api);
        finish(scope, failure.status(), failure.http());
        return ServerResponse.status(failure.http()).contentType(MediaType.APPLICATION_JSON)
                .header(ZeroLayerHeaders.TRACE_ID, scope.traceId)
                .header(REQUEST_ID, scope.requestId)
                .headers(headers -> {
                    fallbackHeader(scope, headers);
                    if (!scope.bodyRead) {
                        // refused before its body was read: the connection is not reused for a next request, so an
                        // unread body can never be taken for one
                        headers.set(HttpHeaders.CONNECTION, "close");
                    }
                })
                .bodyValue(failure.body());
    }

    private void finish(RequestScope scope, DecisionStatus status, int httpStatus) {
        if (!scope.finish()) {
            return;
        }
        metrics.request(scope.api, httpStatus);
        String reason = scope.routed == null ? null : scope.fallbackReason();
        if (reason != null) {
            metrics.fallback(reason);
        }
        try {
            publisher.offer(scope.event(status, httpStatus), tracing.headers(scope.span));
        } catch (RuntimeException e) {
            log.warn("could not build the decision event of request {}: {}", scope.requestId, e.getMessage());
        } finally {
            endSpan(scope, status, httpStatus);
        }
    }

    private static void endSpan(RequestScope scope, DecisionStatus status, int httpStatus) {
        io.micrometer.tracing.Span span = scope.span;
        span.tag("zerolayer.request_id", scope.requestId);
        span.tag("zerolayer.status", status.name());
        span.tag("http.response.status_code", Integer.toString(httpStatus));
        if (scope.routed != null) {
            span.tag("zerolayer.tier", String.valueOf(scope.tier()));
            span.tag("zerolayer.node", String.valueOf(scope.node()));
        }
        span.end();
    }
}
