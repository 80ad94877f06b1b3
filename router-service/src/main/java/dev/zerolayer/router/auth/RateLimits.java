package dev.zerolayer.router.auth;

import dev.zerolayer.contracts.fallback.PolicyOverride;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.state.ActivePolicy;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.micrometer.tagged.TaggedRateLimiterMetrics;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.SemaphoreBasedRateLimiter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Per-API-key request rate: the policy's override for the key, else the configured default; over it, 429 at once.
 * Each key's limiter ({@code key-<id>}) lives in a Resilience4j registry, published by its Micrometer binder; it is
 * the semaphore-based limiter, refilled by one shared scheduler thread, put in place of the registry's own: taking a
 * permit never parks a thread (the registry's atomic limiter backs off with {@code parkNanos} when event loops
 * contend, which cost 10-30 ms per request on a busy 2-core machine).
 */
public class RateLimits implements AutoCloseable {

    private record Limiter(int perSecond, RateLimiter limiter) {
    }

    private final int defaultPerSecond;
    private final ActivePolicy policy;
    private final Map<String, Limiter> limiters = new ConcurrentHashMap<>();
    private final RateLimiterRegistry registry = RateLimiterRegistry.ofDefaults();
    private final ScheduledExecutorService refills = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "rate-limit-refill");
        thread.setDaemon(true);
        return thread;
    });

    public RateLimits(int defaultPerSecond, ActivePolicy policy, MeterRegistry meters) {
        this.defaultPerSecond = defaultPerSecond;
        this.policy = policy;
        TaggedRateLimiterMetrics.ofRateLimiterRegistry(registry).bindTo(meters);
    }

    public void acquire(String keyId) {
        PolicyOverride override = policy.document().apiKeyOverrides().get(keyId);
        int perSecond = override != null && override.requestsPerSecond() != null && override.requestsPerSecond() > 0
                ? override.requestsPerSecond() : defaultPerSecond;
        // read first: compute() locks the key's map bin, and every request of both event loops would queue on it
        Limiter limiter = limiters.get(keyId);
        if (limiter == null || limiter.perSecond() != perSecond) {
            limiter = limiter(keyId, perSecond);
        }
        if (!limiter.limiter().acquirePermission()) {
            throw new ApiException(429, "rate_limit_error", "rate limit of " + perSecond
                    + " requests per second exceeded for this API key");
        }
    }

    private Limiter limiter(String keyId, int perSecond) {
        return limiters.compute(keyId, (id, existing) -> {
            if (existing != null && existing.perSecond() == perSecond) {
                return existing;
            }
            if (existing != null && existing.limiter() instanceof SemaphoreBasedRateLimiter old) {
                old.shutdown();
            }
            RateLimiterConfig config = RateLimiterConfig.custom().limitForPeriod(perSecond)
                    .limitRefreshPeriod(Duration.ofSeconds(1)).timeoutDuration(Duration.ZERO).build();
            SemaphoreBasedRateLimiter limiter = new SemaphoreBasedRateLimiter("key-" + id, config, refills);
            if (registry.find(limiter.getName()).isEmpty()) {
                registry.rateLimiter(limiter.getName(), config);
            }
            registry.replace(limiter.getName(), limiter);
            return new Limiter(perSecond, limiter);
        });
    }

    @Override
    public void close() {
        refills.shutdownNow();
    }
}
