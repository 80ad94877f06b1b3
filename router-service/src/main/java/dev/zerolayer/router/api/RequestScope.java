package dev.zerolayer.router.api;

import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.routing.decision.RouteDecision;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client request from arrival to its decision event: ids (the request span's trace id, continuing the caller's), the
 * caller's key id and session hash, the parsed request, the decision, the dispatch trace, usage, and the once-only
 * outcome. Holds no prompt text beyond the parsed request, which never reaches the event.
 */
public class RequestScope {

    final long startNanos = System.nanoTime();
    final String requestId = EventChecks.newEventId();
    final String traceId;
    final io.micrometer.tracing.Span span;
    final ClientApi api;
    final boolean debugRoute;
    final boolean traceBody;
    volatile String keyId = "anonymous";
    volatile String sessionHash;
    volatile ClientRequest request;
    volatile Routed routed;
    volatile DispatchTrace dispatch;
    volatile int inputTokens;
    volatile int outputTokens;
    /** Refusal handling applied: null (none), "annotated", "kept", or "retried:FROM->TO". */
    volatile String refusalHandling;
    /** Whether the request body was read (a refusal before that closes the connection). */
    volatile boolean bodyRead;
    private final AtomicBoolean finished = new AtomicBoolean();

    RequestScope(ClientApi api, io.micrometer.tracing.Span span, boolean debugRoute, boolean traceBody) {
        this.api = api;
        this.span = span;
        this.traceId = span.context().traceId();
        this.debugRoute = debugRoute;
        this.traceBody = traceBody;
    }

    /** True the first time only: the outcome is recorded once. */
    boolean finish() {
        return finished.compareAndSet(false, true);
    }

    /** The node that served, else the decision's first choice. */
    String node() {
        if (dispatch != null && dispatch.servedNode() != null) {
            return dispatch.servedNode();
        }
        return routed == null ? null : routed.decision().node();
    }

    String tier() {
        NodeRegistration served = dispatch == null ? null : dispatch.served();
        return served != null ? served.tier() : routed == null ? null : routed.decision().tier();
    }

    String cluster() {
        NodeRegistration served = dispatch == null ? null : dispatch.served();
        return served != null ? served.cluster() : routed == null ? null : routed.decision().cluster();
    }

    /** The fallback reason the client is told: the decision's, else {@code node_bypass} when another node served. */
    String fallbackReason() {
        if (refusalHandling != null && refusalHandling.startsWith("retried:")) {
            return "refusal_fallback";
        }
        if (routed != null && routed.decision().fallbackTriggered()) {
            return routed.decision().fallbackReason();
        }
        return dispatch != null && dispatch.bypassed() ? "node_bypass" : null;
    }

    ObjectNode debugObject() {
        ObjectNode debug = EventCodec.mapper().createObjectNode();
        RouteDecision decision = routed.decision();
        debug.put("route_time_ms", routed.routeNanos() / 1e6);
        debug.put("cache_hit", decision.cacheHit());
        String reason = fallbackReason();
        debug.put("fallback_triggered", reason != null);
        debug.put("fallback_reason", reason);
        debug.put("warning", decision.warning());
        debug.put("tier", tier());
        debug.put("cluster", cluster());
        debug.put("node", node());
        debug.put("complexity_score", routed.complexity());
        debug.put("token_count", routed.tokenCount());
        if (refusalHandling != null) {
            debug.put("refusal", refusalHandling);
        }
        return debug;
    }

    RoutingDecision event(DecisionStatus status, int httpStatus) {
        RouteDecision decision = routed == null ? null : routed.decision();
        List<String> tried = dispatch == null ? List.of() : dispatch.tried();
        String reason = fallbackReason();
        return new RoutingDecision(EventChecks.newEventId(), Instant.now(), RoutingDecision.SCHEMA_VERSION, requestId,
                sessionHash, keyId, api.wireName(), request == null ? null : request.model(),
                request != null && request.stream(), tier(), cluster(),
                dispatch == null ? (status == DecisionStatus.EXPLAINED ? node() : null) : dispatch.servedNode(),
                tried, routed == null ? 0 : routed.tokenCount(), routed == null ? 0 : routed.complexity(),
                routed == null ? null : routed.complexityModelVersion(), routed == null ? 0 : routed.policyVersion(),
                decision == null ? List.of() : decision.rulesFired(), reason != null, reason,
                decision == null ? null : decision.warning(), decision != null && decision.cacheHit(),
                routed == null ? List.of() : routed.prefixBlockHashes(),
                routed == null ? 0 : routed.routeNanos() / 1_000, dispatch == null ? 0 : dispatch.ttfbMillis(),
                dispatch == null ? 0 : dispatch.chunkIntervalVarianceMs2(),
                (System.nanoTime() - startNanos) / 1_000_000, inputTokens, outputTokens, status, httpStatus);
    }
}
