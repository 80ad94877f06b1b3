package dev.zerolayer.router.auth;

import dev.zerolayer.contracts.fallback.PolicyOverride;
import dev.zerolayer.router.api.ApiException;
import dev.zerolayer.router.state.ActivePolicy;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Per-API-key request rate: the policy's override for the key, else the configured default; over it, 429 at once. */
public class RateLimits {

    private record Limiter(int perSecond, RateLimiter limiter) {
    }

    private final int defaultPerSecond;
    private final ActivePolicy policy;
    private final Map<String, Limiter> limiters = new ConcurrentHashMap<>();

    public RateLimits(int defaultPerSecond, ActivePolicy policy) {
        this.defaultPerSecond = defaultPerSecond;
        this.policy = policy;
    }

    public void acquire(String keyId) {
        PolicyOverride override = policy.document().apiKeyOverrides().get(keyId);
        int perSecond = override != null && override.requestsPerSecond() != null && override.requestsPerSecond() > 0
                ? override.requestsPerSecond() : defaultPerSecond;
        Limiter limiter = limiters.compute(keyId, (id, existing) -> existing != null && existing.perSecond() == perSecond
                ? existing : new Limiter(perSecond, RateLimiter.of("key-" + id, RateLimiterConfig.custom()
                        .limitForPeriod(perSecond).limitRefreshPeriod(Duration.ofSeconds(1))
                        .timeoutDuration(Duration.ZERO).build())));
        if (!limiter.limiter().acquirePermission()) {
            throw new ApiException(429, "rate_limit_error", "rate limit of " + perSecond
                    + " requests per second exceeded for this API key");
        }
    }
}
