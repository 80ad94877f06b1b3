package dev.zerolayer.router.auth;

import dev.zerolayer.contracts.fallback.PolicyOverride;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.state.ActivePolicy;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.SemaphoreBasedRateLimiter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Per-API-key request rate: the policy's override for the key, else the configured default; over it, 429 at once.
 * Each key's limiter is Resilience4j's semaphore-based one, refilled by one shared scheduler thread: taking a permit
 * never parks a thread (the default atomic limiter backs off with {@code parkNanos} when event loops contend, which
 * cost 10-30 ms per request on a busy 2-core machine).
 */
public class RateLimits implements AutoCloseable {

    private record Limiter(int perSecond, RateLimiter limiter) {
    }

    private final int defaultPerSecond;
    private final ActivePolicy policy;
    private final Map<String, Limiter> limiters = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refills = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "rate-limit-refill");
        thread.setDaemon(true);
        return thread;
    });

    public RateLimits(int defaultPerSecond, ActivePolicy policy) {
        this.defaultPerSecond = defaultPerSecond;
        this.policy = policy;
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
            return new Limiter(perSecond, new SemaphoreBasedRateLimiter("key-" + id, RateLimiterConfig.custom()
                    .limitForPeriod(perSecond).limitRefreshPeriod(Duration.ofSeconds(1))
                    .timeoutDuration(Duration.ZERO).build(), refills));
        });
    }

    @Override
    public void close() {
        refills.shutdownNow();
    }
}
