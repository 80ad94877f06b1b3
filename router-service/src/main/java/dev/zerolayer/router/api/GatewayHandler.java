package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.routing.refusal.RefusalDetector;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.SessionKeys;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.decision.ScoredCandidate;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client APIs: authenticate and rate-limit, read and validate the body, decide, then dispatch (or explain, or
 * count); every response carries the trace id, route and fallback headers as asked, every outcome one decision event,
 * and every error the API's own shape and status.
 */
public class GatewayHandler {

    private static final Logger log = LoggerFactory.getLogger(GatewayHandler.class);
    /** The request id header (as the Anthropic API sends it); the decision event is keyed by it. */
    public static final String REQUEST_ID = "request-id";
    private static final TierLimits DEFAULT_LIMITS = new TierLimits(4_000, 60_000);

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
    private final long maxBodyBytes;
    private final RequestTracing tracing;

    public GatewayHandler(ApiKeyAuthenticator authenticator, RateLimits rateLimits, RequestRouter router,
            Dispatcher dispatcher, ActivePolicy policy, CompactedView<SessionEntry> sessions,
            DecisionPublisher publisher, GatewayMetrics metrics, long maxBodyBytes, RequestTracing tracing) {
        this.tracing = tracing;
        this.authenticator = authenticator;
        this.rateLimits = rateLimits;
        this.router = router;
        this.dispatcher = dispatcher;
        this.policy = policy;
        this.sessions = sessions;
        this.publisher = publisher;
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
    }

    public Mono<ServerResponse> messages(ServerRequest request) {
        return handle(request, ClientApi.ANTHROPIC, Mode.DISPATCH);
    }

    public Mono<ServerResponse> chatCompletions(ServerRequest request) {
        return handle(request, ClientApi.OPENAI, Mode.DISPATCH);
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
            return readBody(http).flatMap(bytes -> {
                scope.bodyRead = true;
                ClientRequest request = api == ClientApi.ANTHROPIC ? RequestParser.anthropic(bytes, mode != Mode.COUNT)
                        : RequestParser.openAi(bytes);
                scope.request = request;
                scope.sessionHash = SessionKeys.sessionHash(headers.getFirst(ZeroLayerHeaders.SESSION_ID),
                        request.userId(), scope.keyId, remote == null ? "unknown" : remote.getHostString());
                if (mode == Mode.COUNT) {
                    return countResponse(scope, request);
                }
                String sticky = sessions.get(scope.sessionHash).map(SessionEntry::stickyNode).orElse(null);
                Routed routed = router.route(request, pin, sticky, scope.keyId);
                scope.routed = routed;
                metrics.routed(routed.decision().tier(), routed.decision().cluster(), routed.routeNanos());
                if (mode == Mode.EXPLAIN) {
                    return explainResponse(scope);
                }
                if (!routed.decision().servable()) {
                    return Mono.error(ApiException.overloaded("no node can serve the request right now"));
                }
                return request.stream() ? stream(http, scope) : whole(scope);
            });
        }).onErrorResume(e -> errorResponse(scope, e));
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

    private Mono<byte[]> readBody(ServerRequest http) {
        long declared = http.headers().contentLength().orElse(-1);
        if (declared > maxBodyBytes) {
            return Mono.error(tooLarge());
        }
        return DataBufferUtils.join(http.body(BodyExtractors.toDataBuffers()), (int) Math.min(Integer.MAX_VALUE,
                        maxBodyBytes))
                .map(buffer -> {
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    return bytes;
                })
                .defaultIfEmpty(new byte[0])
                .onErrorMap(DataBufferLimitException.class, e -> tooLarge());
    }

    private ApiException tooLarge() {
        return new ApiException(413, "request_too_large", "request body exceeds " + maxBodyBytes + " bytes");
    }

    private Mono<ServerResponse> countResponse(RequestScope scope, ClientRequest request) {
        ObjectNode body = EventCodec.mapper().createObjectNode().put("input_tokens", router.countTokens(request));
        finish(scope, DecisionStatus.EXPLAINED, 200);
        return json(scope, 200, body);
    }

    private Mono<ServerResponse> explainResponse(RequestScope scope) {
        Routed routed = scope.routed;
        RouteDecision decision = routed.decision();
        ObjectNode body = EventCodec.mapper().createObjectNode();
        body.put("request_id", scope.requestId);
        body.put("tier", decision.tier());
        body.put("cluster", decision.cluster());
        body.put("node", decision.node());
        body.put("servable", decision.servable());
        ArrayNode ranked = body.putArray("ranked");
        decision.ranked().forEach(ranked::add);
        body.put("token_count", routed.tokenCount());
        body.put("complexity_score", routed.complexity());
        body.put("complexity_model", routed.complexityModelVersion());
        body.put("policy_version", routed.policyVersion());
        body.put("fallback_triggered", decision.fallbackTriggered());
        body.put("fallback_reason", decision.fallbackReason());
        body.put("warning", decision.warning());
        body.put("cache_hit", decision.cacheHit());
        body.put("translated", routed.crossProtocol());
        body.put("route_time_ms", routed.routeNanos() / 1e6);
        ArrayNode rules = body.putArray("rules_fired");
        decision.rulesFired().forEach(rules::add);
        ArrayNode candidates = body.putArray("candidates");
        for (ScoredCandidate c : decision.candidates()) {
            ObjectNode node = candidates.addObject();
            node.put("node", c.nodeId()).put("tier", c.tier()).put("cluster", c.cluster())
                    .put("eligible", c.eligible()).put("excluded_because", c.excludedBecause())
                    .put("score", c.score());
            node.putObject("terms").put("prefix_share", c.prefixShare()).put("load", c.loadTerm())
                    .put("queue", c.queueTerm()).put("health", c.healthTerm()).put("sticky", c.stickyBonus());
        }
        finish(scope, DecisionStatus.EXPLAINED, 200);
        return json(scope, 200, body);
    }

    private TierLimits limits(RequestScope scope, String tier) {
        PolicyDocument document = policy.documentFor(scope.keyId);
        TierLimits limits = tier == null ? null : document.limits().get(tier);
        return limits == null ? DEFAULT_LIMITS : limits;
    }

    private Flux<byte[]> dispatch(RequestScope scope) {
        DispatchTrace trace = new DispatchTrace();
        scope.dispatch = trace;
        RouteDecision decision = scope.routed.decision();
        TierLimits limits = limits(scope, decision.tier());
        ClientRequest request = scope.request;
        Map<String, String> traceHeaders = tracing.headers(scope.span);
        return dispatcher.dispatch(decision.ranked(), router::registration, registration -> call(request,
                        registration, traceHeaders), request.stream(), policy.document().resilience(),
                Duration.ofMillis(limits.ttfbLimitMs()), Duration.ofMillis(limits.deadlineMs()), trace);
    }

    private static Dispatcher.Call call(ClientRequest request, NodeRegistration registration,
            Map<String, String> traceHeaders) {
        ClientApi nodeApi = ClientApi.of(registration.protocol());
        Map<String, String> headers = new LinkedHashMap<>(traceHeaders);
        if (nodeApi == ClientApi.ANTHROPIC) {
            headers.put("anthropic-version", "2023-06-01");
        }
        return new Dispatcher.Call(nodeApi.path(), Translation.upstreamBody(request, nodeApi, registration.model()),
                headers);
    }

    /** Non-streaming: the whole upstream body, its model rewritten (translated if needed), or an error; never partial. */
    private Mono<ServerResponse> whole(RequestScope scope) {
        TierLimits limits = limits(scope, scope.routed.decision().tier());
        return dispatch(scope).next()
                .timeout(Duration.ofMillis(limits.deadlineMs()), dispatcher.timers())
                .onErrorMap(TimeoutException.class, e -> ApiException.timeout("the request deadline passed"))
                .flatMap(bytes -> {
                    NodeRegistration served = scope.dispatch.served();
                    ClientApi upstream = ClientApi.of(served.protocol());
                    RefusalFallback refusal = policy.documentFor(scope.keyId).refusalFallback();
                    if (upstream == scope.api && !scope.traceBody && refusal.mode() == RefusalFallback.Mode.OFF) {
                        // the common case: same API, nothing to add or inspect, so the answer is copied, not rebuilt
                        PassThroughBody.Rewritten rewritten = PassThroughBody.rewrite(bytes, scope.api,
                                scope.request.model());
                        scope.inputTokens = rewritten.inputTokens();
                        scope.outputTokens = rewritten.outputTokens();
                        metrics.ttfb(scope.dispatch.ttfbNanos());
                        finish(scope, DecisionStatus.OK, 200);
                        return json(scope, 200, rewritten.body());
                    }
                    JsonNode parsed;
                    try {
                        parsed = EventCodec.mapper().readTree(bytes);
                    } catch (JacksonException e) {
                        return Mono.error(new ApiException(502, "api_error", "the upstream node sent malformed JSON"));
                    }
                    if (!(parsed instanceof ObjectNode upstreamBody)) {
                        return Mono.error(new ApiException(502, "api_error", "the upstream node sent no JSON object"));
                    }
                    ObjectNode body;
                    if (upstream == scope.api) {
                        body = upstreamBody;
                        body.put("model", scope.request.model());
                    } else if (scope.api == ClientApi.ANTHROPIC) {
                        body = Translation.openAiToAnthropicResponse(upstreamBody, scope.request.model());
                    } else {
                        body = Translation.anthropicToOpenAiResponse(upstreamBody, scope.request.model());
                    }
                    usage(scope, body);
                    metrics.ttfb(scope.dispatch.ttfbNanos());
                    if (refusal.mode() != RefusalFallback.Mode.OFF && scope.refusalHandling == null
                            && isRefusal(scope.api, body)) {
                        if (refusal.mode() == RefusalFallback.Mode.ANNOTATE) {
                            scope.refusalHandling = "annotated";
                            annotate(scope.api, body, refusal.prefix());
                        } else {
                            return retryOnNextTier(scope, body);
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
    private Mono<ServerResponse> retryOnNextTier(RequestScope scope, ObjectNode refused) {
        scope.refusalHandling = "kept";
        String served = scope.tier();
        List<String> chain = policy.documentFor(scope.keyId).chains().getOrDefault(served, List.of());
        String next = chain.stream().filter(tier -> !tier.equals(served)).findFirst().orElse(null);
        if (next == null) {
            return answer(scope, refused);
        }
        Routed retry = router.route(scope.request, next, null, scope.keyId);
        if (!retry.decision().servable()) {
            return answer(scope, refused);
        }
        Routed first = scope.routed;
        DispatchTrace firstTrace = scope.dispatch;
        scope.routed = retry;
        scope.refusalHandling = "retried:" + served + "->" + next;
        return whole(scope).onErrorResume(e -> {
            scope.routed = first;
            scope.dispatch = firstTrace;
            scope.refusalHandling = "kept";
            return answer(scope, refused);
        });
    }

    private static boolean isRefusal(ClientApi api, ObjectNode body) {
        if (api == ClientApi.ANTHROPIC) {
            JsonNode content = body.path("content");
            String text = null;
            for (JsonNode block : content) {
                if ("text".equals(block.path("type").asString(""))) {
                    text = block.path("text").asString("");
                    break;
                }
            }
            return RefusalDetector.isRefusal(body.path("stop_reason").asString(null), null, text);
        }
        JsonNode choice = body.path("choices").path(0);
        JsonNode message = choice.path("message");
        return RefusalDetector.isRefusal(choice.path("finish_reason").asString(null),
                message.path("refusal").isString() ? message.path("refusal").asString() : null,
                message.path("content").isString() ? message.path("content").asString() : null);
    }

    /** Prepends the policy's explanatory prefix to the answer's first text. */
    private static void annotate(ClientApi api, ObjectNode body, String prefix) {
        if (api == ClientApi.ANTHROPIC) {
            for (JsonNode block : body.path("content")) {
                if (block instanceof ObjectNode text && "text".equals(text.path("type").asString(""))) {
                    text.put("text", prefix + text.path("text").asString(""));
                    return;
                }
            }
            return;
        }
        if (body.path("choices").path(0).path("message") instanceof ObjectNode message) {
            String content = message.path("content").isString() ? message.path("content").asString()
                    : message.path("refusal").asString("");
            message.put("content", prefix + content);
        }
    }

    private static void usage(RequestScope scope, ObjectNode body) {
        JsonNode usage = body.path("usage");
        scope.inputTokens = usage.path(scope.api.inputTokensField()).asInt(0);
        scope.outputTokens = usage.path(scope.api.outputTokensField()).asInt(0);
    }

    /**
     * Streaming: the response commits with the first client event (route headers set then); a failure before it
     * becomes an ordinary error response (529/504), a failure after it ends the stream with the API's error event.
     */
    private Mono<ServerResponse> stream(ServerRequest http, RequestScope scope) {
        ServerHttpResponse response = http.exchange().getResponse();
        Flux<byte[]> upstream = dispatch(scope);
        Flux<DataBuffer> body = Flux.defer(() -> {
            SseFramer framer = new SseFramer();
            StreamShaper[] shaper = new StreamShaper[1];
            boolean[] started = new boolean[1];
            return upstream
                    // one write per upstream chunk (all the client events it completed), not one per event
                    .map(chunk -> {
                        if (shaper[0] == null) {
                            metrics.ttfb(scope.dispatch.ttfbNanos());
                            shaper[0] = new StreamShaper(scope.api, ClientApi.of(scope.dispatch.served().protocol()),
                                    scope.request.model(), scope.traceBody ? scope::debugObject : null);
                        }
                        List<byte[]> out = new ArrayList<>();
                        for (byte[] event : framer.add(chunk)) {
                            out.addAll(shaper[0].onEvent(event));
                        }
                        return Dispatcher.concat(out);
                    })
                    .filter(bytes -> bytes.length > 0)
                    .concatWith(Flux.defer(() -> {
                        if (shaper[0] == null) {
                            return Flux.error(UpstreamFailure.of("upstream_empty_response"));
                        }
                        List<byte[]> out = new ArrayList<>();
                        byte[] rest = framer.rest();
                        if (rest != null) {
                            out.addAll(shaper[0].onEvent(rest));
                        }
                        out.addAll(shaper[0].onEnd(false));
                        return out.isEmpty() ? Flux.empty() : Flux.just(Dispatcher.concat(out));
                    }))
                    .doOnNext(first -> {
                        if (!started[0]) {
                            started[0] = true;
                            routeHeaders(scope, response.getHeaders());
                        }
                    })
                    .onErrorResume(e -> {
                        if (started[0] && shaper[0] != null) {
                            return Flux.just(Dispatcher.concat(shaper[0].onEnd(true)));
                        }
                        return Flux.error(e);
                    })
                    .doOnComplete(() -> {
                        if (shaper[0] != null) {
                            scope.inputTokens = shaper[0].inputTokens();
                            scope.outputTokens = shaper[0].outputTokens();
                            boolean failed = shaper[0].failed();
                            finish(scope, failed ? DecisionStatus.STREAM_FAILED : DecisionStatus.OK, 200);
                        }
                    })
                    .doOnCancel(() -> finish(scope, DecisionStatus.STREAM_FAILED, 499))
                    .map(bytes -> response.bufferFactory().wrap(bytes))
                    .onErrorResume(e -> {
                        // Nothing was sent yet: answer with the API's error instead of an event stream.
                        Failure failure = failure(e);
                        finish(scope, failure.status(), failure.http());
                        response.setStatusCode(HttpStatusCode.valueOf(failure.http()));
                        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
                        fallbackHeader(scope, response.getHeaders());
                        return Mono.just(response.bufferFactory().wrap(failure.body(scope.api)));
                    });
        });
        return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache")
                .header(ZeroLayerHeaders.TRACE_ID, scope.traceId)
                .header(REQUEST_ID, scope.requestId)
                .body(BodyInserters.fromDataBuffers(body));
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
        return json(scope, status, EventCodec.mapper().writeValueAsBytes(body));
    }

    private Mono<ServerResponse> json(RequestScope scope, int status, byte[] body) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON)
                .header(ZeroLayerHeaders.TRACE_ID, scope.traceId)
                .header(REQUEST_ID, scope.requestId)
                .headers(headers -> {
                    if (scope.routed != null && scope.routed.decision().servable()) {
                        routeHeaders(scope, headers);
                    }
                })
                .bodyValue(body);
    }

    /** An error as the client sees it: status, the decision status it records, and the body in the API's shape. */
    private record Failure(int http, DecisionStatus status, String type, String message, byte[] passThrough) {

        byte[] body(ClientApi api) {
            return passThrough != null ? passThrough : api.errorBody(type, message);
        }
    }

    private static Failure failure(Throwable e) {
        if (e instanceof ApiException api) {
            DecisionStatus status = switch (api.status()) {
                case 529 -> DecisionStatus.OVERLOADED;
                case 504 -> DecisionStatus.TIMEOUT;
                default -> api.status() >= 500 ? DecisionStatus.OVERLOADED : DecisionStatus.REJECTED;
            };
            return new Failure(api.status(), status, api.type(), api.getMessage(), null);
        }
        if (e instanceof UpstreamFailure upstream && !upstream.bypassable()) {
            return new Failure(upstream.status(), DecisionStatus.REJECTED, "invalid_request_error",
                    "the upstream node rejected the request (HTTP " + upstream.status() + ")", null);
        }
        if (e instanceof UpstreamFailure) {
            return new Failure(529, DecisionStatus.OVERLOADED, "overloaded_error", "no node could serve the request",
                    null);
        }
        log.error("unexpected failure handling a request: {}", e.toString());
        return new Failure(500, DecisionStatus.OVERLOADED, "api_error", "internal error", null);
    }

    private Mono<ServerResponse> errorResponse(RequestScope scope, Throwable e) {
        Failure failure = failure(e);
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
                .bodyValue(failure.body(scope.api));
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
