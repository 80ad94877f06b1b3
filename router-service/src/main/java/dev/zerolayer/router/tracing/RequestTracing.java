package dev.zerolayer.router.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;

/**
 * One span per client request that continues the caller's W3C {@code traceparent} (a new trace when there is none or
 * it is invalid); its context goes to the upstream node and onto the decision event's Kafka headers, and its trace id
 * is the {@code X-Anthropic-Trace-ID}. Span tags carry ids and outcomes only, never prompt text.
 */
public final class RequestTracing {

    private final Tracer tracer;
    private final Propagator propagator;

    public RequestTracing(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** Starts the request's server span as a child of the incoming trace context, if any. */
    public Span start(HttpHeaders incoming) {
        Span.Builder builder = propagator.extract(incoming, HttpHeaders::getFirst);
        return builder.name("zerolayer.request").kind(Span.Kind.SERVER).start();
    }

    /** The trace context headers ({@code traceparent}, and {@code tracestate} when set) of a span. */
    public Map<String, String> headers(Span span) {
        Map<String, String> headers = new LinkedHashMap<>();
        propagator.inject(span.context(), headers, Map::put);
        return headers;
    }

    public Tracer tracer() {
        return tracer;
    }
}
