package dev.zerolayer.router.api;

import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.state.TtftLearner;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's Prometheus metrics: requests by API and status, routes by tier/cluster, route time, fallbacks by reason,
 * upstream TTFB (and, with a {@link TtftLearner}, the TTFT models' learning and error); each labelled counter is registered once and then found in a map (building and registering a meter
 * per request cost more than the increment).
 */
public class GatewayMetrics {

    private final MeterRegistry meters;
    private final Timer routeTime;
    private final Timer ttfb;
    private final Map<ClientApi, Map<Integer, Counter>> requests = new EnumMap<>(ClientApi.class);
    private final Map<String, Map<String, Counter>> routes = new ConcurrentHashMap<>();
    private final Map<String, Counter> fallbacks = new ConcurrentHashMap<>();
    private final Map<String, Counter> recoveries = new ConcurrentHashMap<>();
    private final TtftLearner ttftLearner;

    public GatewayMetrics(MeterRegistry meters) {
        this(meters, null);
    }

    /** Metrics that also feed each served answer's TTFB to the nodes' TTFT models ({@code ttft} null: none). */
    public GatewayMetrics(MeterRegistry meters, TtftLearner ttft) {
        this.meters = meters;
        this.ttftLearner = ttft;
        this.routeTime = Timer.builder("zerolayer_route_time").description("time to decide a route")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(1_000))
                .maximumExpectedValue(Duration.ofMillis(100)).register(meters);
        this.ttfb = Timer.builder("zerolayer_upstream_ttfb").description("upstream time to first byte")
                .publishPercentileHistogram().register(meters);
        for (ClientApi api : ClientApi.values()) {
            requests.put(api, new ConcurrentHashMap<>());
        }
    }

    public void request(ClientApi api, int httpStatus) {
        requests.get(api).computeIfAbsent(httpStatus, status -> Counter.builder("zerolayer_requests")
                .tag("api", api.wireName()).tag("status", Integer.toString(status)).register(meters)).increment();
    }

    public void routed(String tier, String cluster, long routeNanos) {
        routeTime.record(routeNanos, TimeUnit.NANOSECONDS);
        if (tier != null && cluster != null) {
            routes.computeIfAbsent(tier, t -> new ConcurrentHashMap<>()).computeIfAbsent(cluster, c -> Counter
                    .builder("zerolayer_route").tag("tier", tier).tag("cluster", c).register(meters)).increment();
        }
    }

    public void fallback(String reason) {
        fallbacks.computeIfAbsent(reason, r -> Counter.builder("zerolayer_fallback").tag("reason", r)
                .register(meters)).increment();
    }

    public void ttfb(long nanos) {
        if (nanos >= 0) {
            ttfb.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** A stream broken mid-way and what was done about it ({@code zerolayer_stream_recoveries_total{kind,reason}}). */
    public void recovered(String kind, String reason) {
        recoveries.computeIfAbsent(kind + '|' + reason, k -> Counter.builder("zerolayer_stream_recoveries")
                .tag("kind", kind).tag("reason", reason).register(meters)).increment();
    }

    /** A request's outcome for the TTFT models: its decision's prediction against the TTFB it got. */
    void ttftObserved(Routed routed, DispatchTrace dispatch) {
        if (ttftLearner != null && routed != null) {
            ttftLearner.observe(routed.decision(), dispatch);
        }
    }
}
