package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import tools.jackson.databind.JsonNode;

/**
 * The outcome stage's replies: a JSON answer or an error in the client API's shape, each recorded once, each with the
 * trace and request ids, and the route and fallback headers as asked.
 */
final class Replies {

    /** The request id header (as the Anthropic API sends it); the decision event is keyed by it. */
    static final String REQUEST_ID = "request-id";

    private final Outcomes outcomes;

    Replies(Outcomes outcomes) {
        this.outcomes = outcomes;
    }

    /** A 200 JSON answer; route headers when the request was routed to a node that can serve it. */
    Reply json(Progress progress, DecisionStatus status, JsonNode body) {
        outcomes.record(progress, status, 200);
        Reply reply = Reply.json(200, EventCodec.bytes(body));
        ids(progress.arrival(), reply.headers());
        if (progress.routed() != null && progress.routed().decision().servable()) {
            routeHeaders(progress, reply.headers());
        }
        return reply;
    }

    /** A failure of any stage, answered with its status and the API's error body (see {@link Failures}). */
    Reply error(Progress.Failed failed) {
        Progress progress = failed.at();
        Failures.Failure failure = Failures.of(failed.getCause(), progress.arrival().api());
        outcomes.record(progress, failure.status(), failure.http());
        Reply reply = Reply.json(failure.http(), failure.body());
        ids(progress.arrival(), reply.headers());
        fallbackHeader(progress, reply.headers());
        if (!progress.bodyRead()) {
            // refused before its body was read: the connection is not reused for a next request, so an unread body
            // can never be taken for one
            reply.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return reply;
    }

    static void ids(Progress.Arrival arrival, HttpHeaders headers) {
        headers.set(ZeroLayerHeaders.TRACE_ID, arrival.traceId());
        headers.set(REQUEST_ID, arrival.requestId());
    }

    static void routeHeaders(Progress progress, HttpHeaders headers) {
        if (progress.arrival().debugRoute()) {
            headers.set(ZeroLayerHeaders.ROUTE, progress.tier() + "/" + progress.cluster() + "/" + progress.node());
        }
        fallbackHeader(progress, headers);
    }

    static void fallbackHeader(Progress progress, HttpHeaders headers) {
        String reason = progress.fallbackReason();
        if (reason != null) {
            headers.set(ZeroLayerHeaders.FALLBACK_REASON, reason);
        }
    }
}
