package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.decision.ScoredCandidate;
import java.time.Instant;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The last stage: a request's outcome recorded once, as a metric, one decision event, the end of its span and, when a
 * node served it, the router's memory of what was sent where.
 */
final class Outcomes {

    private static final Logger log = LoggerFactory.getLogger(Outcomes.class);

    private final GatewayMetrics metrics;
    private final DecisionPublisher publisher;
    private final RequestTracing tracing;
    private final RequestRouter router;

    Outcomes(GatewayMetrics metrics, DecisionPublisher publisher, RequestTracing tracing, RequestRouter router) {
        this.metrics = metrics;
        this.publisher = publisher;
        this.tracing = tracing;
        this.router = router;
    }

    /** Records the outcome of the request {@code progress} belongs to, unless one was recorded already. */
    void record(Progress progress, DecisionStatus status, int httpStatus) {
        Progress.Arrival arrival = progress.arrival();
        if (!arrival.recorded().compareAndSet(false, true)) {
            return;
        }
        metrics.request(arrival.api(), httpStatus);
        String reason = progress.routed() == null ? null : progress.fallbackReason();
        if (reason != null) {
            metrics.fallback(reason);
        }
        metrics.ttftObserved(progress.routed(), progress.dispatch());
        if ((status == DecisionStatus.OK || status == DecisionStatus.STREAM_FAILED) && progress.routed() != null
                && progress.dispatch() != null && progress.dispatch().servedNode() != null) {
            router.served(progress.routed(), progress.dispatch().servedNode());
        }
        try {
            publisher.offer(event(progress, status, httpStatus), tracing.headers(arrival.span()));
        } catch (RuntimeException e) {
            log.warn("could not build the decision event of request {}: {}", arrival.requestId(), e.getMessage());
        } finally {
            endSpan(progress, status, httpStatus);
        }
    }

    /** The {@code debug} object a traced answer carries. */
    static ObjectNode debug(Progress progress) {
        ObjectNode debug = EventCodec.mapper().createObjectNode();
        Routed routed = progress.routed();
        RouteDecision decision = routed.decision();
        debug.put("route_time_ms", routed.routeNanos() / 1e6);
        debug.put("cache_hit", decision.cacheHit());
        String reason = progress.fallbackReason();
        debug.put("fallback_triggered", reason != null);
        debug.put("fallback_reason", reason);
        debug.put("warning", decision.warning());
        debug.put("tier", progress.tier());
        debug.put("cluster", progress.cluster());
        debug.put("node", progress.node());
        debug.put("complexity_score", routed.complexity());
        debug.put("token_count", routed.tokenCount());
        String refusal = progress.refusal().wire();
        if (refusal != null) {
            debug.put("refusal", refusal);
        }
        DispatchTrace dispatch = progress.dispatch();
        if (dispatch != null && !dispatch.recoveries().isEmpty()) {
            // a whole answer's debug is written after it: how a node breaking it was got over
            ArrayNode recoveries = debug.putArray("recoveries");
            for (Recovery recovery : dispatch.recoveries()) {
                recoveries.addObject().put("kind", recovery.kind().name().toLowerCase(Locale.ROOT))
                        .put("from_node", recovery.fromNode()).put("to_node", recovery.toNode())
                        .put("token_offset", recovery.tokenOffset()).put("reason", recovery.reason())
                        .put("added_ms", recovery.addedMillis());
            }
        }
        return debug;
    }

    static RoutingDecision event(Progress progress, DecisionStatus status, int httpStatus) {
        Progress.Arrival arrival = progress.arrival();
        RoutingDecision.Builder event = RoutingDecision.builder()
                .eventId(EventChecks.newEventId())
                .occurredAt(Instant.now())
                .requestId(arrival.requestId())
                .sessionHash(progress.sessionHash())
                .apiKeyId(progress.keyId())
                .clientApi(arrival.api().wireName())
                .tier(progress.tier())
                .cluster(progress.cluster())
                .totalLatencyMillis((System.nanoTime() - arrival.startNanos()) / 1_000_000)
                .inputTokens(progress.usage().input())
                .outputTokens(progress.usage().output())
                .status(status)
                .httpStatus(httpStatus);
        if (progress.request() != null) {
            event.requestedModel(progress.request().model()).streaming(progress.request().stream());
        }
        String reason = progress.fallbackReason();
        event.fallbackTriggered(reason != null).fallbackReason(reason);
        Routed routed = progress.routed();
        if (routed != null) {
            RouteDecision decision = routed.decision();
            event.tokenCount(routed.tokenCount())
                    .complexityScore(routed.complexity())
                    .complexityModelVersion(routed.complexityModelVersion())
                    .policyVersion(routed.policyVersion())
                    .rulesFired(decision.rulesFired())
                    .warning(decision.warning())
                    .cacheHit(decision.cacheHit())
                    .prefixBlockHashes(routed.prefixBlockHashes())
                    .routeTimeMicros(routed.routeNanos() / 1_000)
                    .candidates(decision.candidates().stream().map(ScoredCandidate::forEvent).toList());
        }
        DispatchTrace dispatch = progress.dispatch();
        if (dispatch != null) {
            event.node(dispatch.servedNode())
                    .nodesTried(dispatch.tried())
                    .recoveries(dispatch.recoveries())
                    .ttfbMillis(dispatch.ttfbMillis())
                    .chunkIntervalVarianceMs2(dispatch.chunkIntervalVarianceMs2());
        } else if (status == DecisionStatus.EXPLAINED) {
            event.node(progress.node());
        }
        return event.build();
    }

    private static void endSpan(Progress progress, DecisionStatus status, int httpStatus) {
        io.micrometer.tracing.Span span = progress.arrival().span();
        span.tag("zerolayer.request_id", progress.arrival().requestId());
        span.tag("zerolayer.status", status.name());
        span.tag("http.response.status_code", Integer.toString(httpStatus));
        if (progress.routed() != null) {
            span.tag("zerolayer.tier", String.valueOf(progress.tier()));
            span.tag("zerolayer.node", String.valueOf(progress.node()));
        }
        span.end();
    }
}
