package dev.zerolayer.router.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** The request span continues a valid W3C traceparent, starts a fresh trace otherwise, and propagates its context. */
class RequestTracingTest {

    private final RequestTracing tracing = tracing();

    private static RequestTracing tracing() {
        ContextPropagators propagators = ContextPropagators.create(W3CTraceContextPropagator.getInstance());
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().build())
                .setPropagators(propagators).build();
        var otel = sdk.getTracer("test");
        return new RequestTracing(new OtelTracer(otel, new OtelCurrentTraceContext(), event -> { }),
                new OtelPropagator(propagators, otel));
    }

    private static HttpHeaders traceparent(String value) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("traceparent", value);
        return headers;
    }

    @Test
    void continuesAValidTraceparentAsAChildSpan() {
        Span span = tracing.start(traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));

        assertThat(span.context().traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.context().spanId()).isNotEqualTo("00f067aa0ba902b7");
        Map<String, String> downstream = tracing.headers(span);
        assertThat(downstream.get("traceparent"))
                .matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01")
                .contains(span.context().spanId());
        span.end();
    }

    @Test
    void startsAFreshTraceWhenTheTraceparentIsMissingOrInvalid() {
        Span none = tracing.start(new HttpHeaders());
        Span zeros = tracing.start(traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"));
        Span garbage = tracing.start(traceparent("garbage"));

        assertThat(none.context().traceId()).hasSize(32).isNotEqualTo(garbage.context().traceId());
        assertThat(zeros.context().traceId()).hasSize(32).isNotEqualTo("00000000000000000000000000000000");
        assertThat(tracing.headers(none).get("traceparent")).startsWith("00-" + none.context().traceId() + "-");
    }
}
