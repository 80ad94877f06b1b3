package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The outcome stage's responses: a JSON answer or an error in the client API's shape, each recorded once, each with
 * the trace and request ids, and the route and fallback headers as asked.
 */
final class Replies {

    /** The request id header (as the Anthropic API sends it); the decision event is keyed by it. */
    static final String REQUEST_ID = "request-id";

    private final Outcomes outcomes;

    Replies(Outcomes outcomes) {
        this.outcomes = outcomes;
    }

    /** A 200 JSON answer; route headers when the request was routed to a node that can serve it. */
    Mono<ServerResponse> json(Progress progress, DecisionStatus status, JsonNode body) {
        outcomes.record(progress, status, 200);
        Progress.Arrival arrival = progress.arrival();
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON)
                .header(ZeroLayerHeaders.TRACE_ID, arrival.traceId())
                .header(REQUEST_ID, arrival.requestId())
                .headers(headers -> {
                    if (progress.routed() != null && progress.routed().decision().servable()) {
                        routeHeaders(progress, headers);
                    }
                })
                .bodyValue(EventCodec.bytes(body));
    }

    /** A failure of any stage, answered with its status and the API's error body (see {@link Failures}). */
    Mono<ServerResponse> error(Progress.Failed failed) {
        Progress progress = failed.at();
        Failures.Failure failure = Failures.of(failed.getCause(), progress.arrival().api());
        outcomes.record(progress, failure.status(), failure.http());
        Progress.Arrival arrival = progress.arrival();
        return ServerResponse.status(failure.http()).contentType(MediaType.APPLICATION_JSON)
                .header(ZeroLayerHeaders.TRACE_ID, arrival.traceId())
                .header(REQUEST_ID, arrival.requestId())
                .headers(headers -> {
                    fallbackHeader(progress, headers);
                    if (!progress.bodyRead()) {
                        // refused before its body was read: the connection is not reused for a next request, so an
                        // unread body can never be taken for one
                        headers.set(HttpHeaders.CONNECTION, "close");
                    }
                })
                .bodyValue(failure.body());
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
