package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.fallback.Resilience;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per node: a circuit breaker (failure rate and slow calls), a bulkhead and the router's in-flight count, built from
 * the policy's resilience settings when a node is first used and rebuilt when those settings change.
 */
public class NodeGuards {

    /** One node's guards under one set of resilience settings. */
    public record Guard(Resilience settings, CircuitBreaker breaker, Bulkhead bulkhead, AtomicInteger inFlight) {
    }

    private final Map<String, Guard> guards = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    public NodeGuards(MeterRegistry meters) {
        this.meters = meters;
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
        CircuitBreaker breaker = CircuitBreaker.of("node-" + node, CircuitBreakerConfig.custom()
                .failureRateThreshold(settings.breakerFailureRatePercent())
                .slowCallRateThreshold(settings.breakerSlowCallRatePercent())
                .slowCallDurationThreshold(Duration.ofMillis(Math.max(1, settings.slowCallMs())))
                .slidingWindowSize(Math.max(1, settings.breakerWindowSize()))
                .minimumNumberOfCalls(Math.max(1, settings.breakerMinimumCalls()))
                .waitDurationInOpenState(Duration.ofMillis(Math.max(1, settings.breakerCooldownMs())))
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build());
        Bulkhead bulkhead = Bulkhead.of("node-" + node, BulkheadConfig.custom()
                .maxConcurrentCalls(Math.max(1, settings.bulkheadMaxConcurrent()))
                .maxWaitDuration(Duration.ZERO)
                .build());
        AtomicInteger inFlight = previous == null ? new AtomicInteger() : previous.inFlight();
        if (previous == null) {
            Gauge.builder("zerolayer_node_breaker_state", this, g -> g.stateCode(node))
                    .description("circuit breaker per node: 0 closed, 1 half-open, 2 open, 3 other")
                    .tag("node", node).register(meters);
            Gauge.builder("zerolayer_node_in_flight", inFlight, AtomicInteger::get).tag("node", node)
                    .register(meters);
        }
        return new Guard(settings, breaker, bulkhead, inFlight);
    }

    double stateCode(String node) {
        Guard guard = guards.get(node);
        if (guard == null) {
            return 0;
        }
        return switch (guard.breaker().getState()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN, FORCED_OPEN -> 2;
            default -> 3;
        };
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
