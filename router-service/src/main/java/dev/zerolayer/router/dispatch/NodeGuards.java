package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.fallback.Resilience;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per node ({@code node-<id>}): a circuit breaker and a bulkhead in Resilience4j's registries, published by its
 * Micrometer binders, built from the policy's resilience settings when the node is first used and replaced in the
 * registry when those settings change; and the router's in-flight count.
 */
public class NodeGuards {

    /** One node's guards under one set of resilience settings. */
    public record Guard(Resilience settings, CircuitBreaker breaker, Bulkhead bulkhead, AtomicInteger inFlight) {
    }

    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
    private final Map<String, Guard> guards = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    public NodeGuards(MeterRegistry meters) {
        this.meters = meters;
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
        TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
    }

    public Guard guard(String node, Resilience settings) {
        // read first: compute() locks the node's map bin, and every request of both event loops would queue on it
        Guard current = guards.get(node);
        if (current != null && current.settings().equals(settings)) {
            return current;
        }
        return guards.compute(node, (id, existing) -> existing != null && existing.settings().equals(settings)
                ? existing : create(id, settings, existing));
    }

    private Guard create(String node, Resilience settings, Guard previous) {
        String name = "node-" + node;
        CircuitBreakerConfig breakerConfig = CircuitBreakerConfig.custom()
                .failureRateThreshold(settings.breakerFailureRatePercent())
                .slowCallRateThreshold(settings.breakerSlowCallRatePercent())
                .slowCallDurationThreshold(Duration.ofMillis(Math.max(1, settings.slowCallMs())))
                .slidingWindowSize(Math.max(1, settings.breakerWindowSize()))
                .minimumNumberOfCalls(Math.max(1, settings.breakerMinimumCalls()))
                .waitDurationInOpenState(Duration.ofMillis(Math.max(1, settings.breakerCooldownMs())))
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build();
        BulkheadConfig bulkheadConfig = BulkheadConfig.custom()
                .maxConcurrentCalls(Math.max(1, settings.bulkheadMaxConcurrent()))
                .maxWaitDuration(Duration.ZERO)
                .build();
        CircuitBreaker breaker;
        Bulkhead bulkhead;
        AtomicInteger inFlight;
        if (previous == null) {
            breaker = breakers.circuitBreaker(name, breakerConfig);
            bulkhead = bulkheads.bulkhead(name, bulkheadConfig);
            inFlight = new AtomicInteger();
            Gauge.builder("zerolayer_node_in_flight", inFlight, AtomicInteger::get).tag("node", node)
                    .description("requests this router has open on the node").register(meters);
        } else {
            // new settings: fresh guards replace the node's in the registries (their meters follow the replacement)
            breaker = CircuitBreaker.of(name, breakerConfig);
            breakers.replace(name, breaker);
            bulkhead = Bulkhead.of(name, bulkheadConfig);
            bulkheads.replace(name, bulkhead);
            inFlight = previous.inFlight();
        }
        return new Guard(settings, breaker, bulkhead, inFlight);
    }

    /** Whether the node's breaker refuses calls now (unknown nodes: no). */
    public boolean breakerOpen(String node) {
        Guard guard = guards.get(node);
        if (guard == null) {
            return false;
        }
        CircuitBreaker.State state = guard.breaker().getState();
        return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
    }

    public int inFlight(String node) {
        Guard guard = guards.get(node);
        return guard == null ? 0 : guard.inFlight().get();
    }
}
