package dev.zerolayer.router.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The gateway's Prometheus metrics: requests by API and status, routes by tier/cluster, route time, fallbacks by reason, upstream TTFB. */
public class GatewayMetrics {

    private final MeterRegistry meters;
    private final Timer routeTime;
    private final Timer ttfb;

    public GatewayMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.routeTime = Timer.builder("zerolayer_route_time").description("time to decide a route")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(1_000))
                .maximumExpectedValue(Duration.ofMillis(100)).register(meters);
        this.ttfb = Timer.builder("zerolayer_upstream_ttfb").description("upstream time to first byte")
                .publishPercentileHistogram().register(meters);
    }

    public void request(ClientApi api, int httpStatus) {
        Counter.builder("zerolayer_requests").tag("api", api.wireName()).tag("status", Integer.toString(httpStatus))
                .register(meters).increment();
    }

    public void routed(String tier, String cluster, long routeNanos) {
        routeTime.record(routeNanos, TimeUnit.NANOSECONDS);
        if (tier != null && cluster != null) {
            Counter.builder("zerolayer_route").tag("tier", tier).tag("cluster", cluster).register(meters).increment();
        }
    }

    public void fallback(String reason) {
        Counter.builder("zerolayer_fallback").tag("reason", reason).register(meters).increment();
    }

    public void ttfb(long nanos) {
        if (nanos >= 0) {
            ttfb.record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
