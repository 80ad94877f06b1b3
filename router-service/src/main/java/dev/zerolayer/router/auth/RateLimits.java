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
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-API-key request rate: the policy's override for the key, else the configured default, across all router
 * replicas; over this replica's part of it, 429 at once. {@link KeyDemandExchange} sets the part ({@link #permit}) from
 * the replicas' demand, every request asked here counting, admitted or not. Each key's limiter ({@code key-<id>})
 * lives in a Resilience4j registry, published by its Micrometer binder; it is the semaphore-based limiter, refilled by
 * one shared scheduler thread, put in place of the registry's own: taking a permit never parks a thread (the
 * registry's atomic limiter backs off with {@code parkNanos} when event loops contend, which cost 10-30 ms per request
 * on a busy 2-core machine).
 */
public class RateLimits implements AutoCloseable {

    /** A key's limiter under the key's limit; {@code part} is this replica's permits per second of it (0: closed). */
    private record Limiter(int perSecond, RateLimiter limiter, AtomicInteger part) {
    }

    private final int defaultPerSecond;
    private final ActivePolicy policy;
    private final Map<String, Limiter> limiters = new ConcurrentHashMap<>();
    /** Parts set for keys not asked here yet (only peers asked for them): a first limiter starts at its part. */
    private final Map<String, Integer> parts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> asked = new ConcurrentHashMap<>();
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
        LongAdder demand = asked.get(keyId);
        if (demand == null) {
            demand = asked.computeIfAbsent(keyId, id -> new LongAdder());
        }
        demand.increment();
        int perSecond = limitOf(keyId);
        // read first: compute() locks the key's map bin, and every request of both event loops would queue on it
        Limiter limiter = limiters.get(keyId);
        if (limiter == null || limiter.perSecond() != perSecond) {
            limiter = limiter(keyId, perSecond);
        }
        if (limiter.part().get() == 0 || !limiter.limiter().acquirePermission()) {
            throw new ApiException(429, "rate_limit_error", "rate limit of " + perSecond
                    + " requests per second exceeded for this API key");
        }
    }

    /** The key's limit across all replicas: the policy's override for it, else the configured default. */
    public int limitOf(String keyId) {
        PolicyOverride override = policy.document().apiKeyOverrides().get(keyId);
        return override != null && override.requestsPerSecond() != null && override.requestsPerSecond() > 0
                ? override.requestsPerSecond() : defaultPerSecond;
    }

    /**
     * The requests each key asked for since the last call (admitted or not); keys that asked none are left out, and
     * forgotten until they ask again.
     */
    public Map<String, Long> drainAsked() {
        Map<String, Long> drained = new HashMap<>();
        asked.forEach((keyId, demand) -> {
            long count = demand.sumThenReset();
            if (count > 0) {
                drained.put(keyId, count);
            } else {
                asked.remove(keyId, demand);
            }
        });
        return drained;
    }

    /**
     * This replica's part of the key's limit, {@code perSecond} permits (0 closes the key here at once; more than the
     * key's limit is the limit): from the limiter's next refill on, permits left over this period beyond the part taken
     * back.
     */
    public void permit(String keyId, int perSecond) {
        int limit = limitOf(keyId);
        int permits = Math.max(0, Math.min(limit, perSecond));
        Limiter limiter = limiters.get(keyId);
        if (limiter == null) {
            // not asked here: no limiter (nor its meters) for a key only peers ask for, just its part for a first one
            if (permits == limit) {
                parts.remove(keyId);
            } else {
                parts.put(keyId, permits);
            }
            return;
        }
        if (limiter.perSecond() != limit) {
            limiter = limiter(keyId, limit);
        }
        limiter.part().set(permits);
        if (permits > 0 && limiter.limiter().getRateLimiterConfig().getLimitForPeriod() != permits) {
            Limiter target = limiter;
            refills.execute(() -> apply(target));
        }
    }

    /**
     * Puts the limiter's latest part in force, on the refill thread between refills: excess permits first (a refill
     * releases {@code limit - available} permits, and fails for good, its periodic task cancelled, when more than the
     * new limit are available), then the new limit.
     */
    private static void apply(Limiter limiter) {
        int wanted = limiter.part().get();
        if (wanted <= 0) {
            return;
        }
        RateLimiter target = limiter.limiter();
        int excess;
        while ((excess = target.getMetrics().getAvailablePermissions() - wanted) > 0
                && !target.acquirePermission(excess)) {
            Thread.onSpinWait();
        }
        if (target.getRateLimiterConfig().getLimitForPeriod() != wanted) {
            target.changeLimitForPeriod(wanted);
        }
    }

    /**
     * The permits per second this replica gives the key now (its part of the key's limit, in force), or empty when
     * nothing was set for it here.
     */
    public java.util.OptionalInt permitsOf(String keyId) {
        Limiter limiter = limiters.get(keyId);
        if (limiter == null) {
            Integer part = parts.get(keyId);
            return part == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(part);
        }
        return java.util.OptionalInt.of(limiter.part().get() == 0 ? 0
                : limiter.limiter().getRateLimiterConfig().getLimitForPeriod());
    }

    private Limiter limiter(String keyId, int perSecond) {
        return limiters.compute(keyId, (id, existing) -> {
            if (existing != null && existing.perSecond() == perSecond) {
                return existing;
            }
            if (existing != null && existing.limiter() instanceof SemaphoreBasedRateLimiter old) {
                old.shutdown();
            }
            // a new limit keeps this replica's share of the old one; a first limiter starts at the part set for it
            Integer set = parts.remove(id);
            int part = existing != null
                    ? (int) Math.round((double) existing.part().get() * perSecond / existing.perSecond())
                    : set != null ? set : perSecond;
            part = Math.max(0, Math.min(perSecond, part));
            RateLimiterConfig config = RateLimiterConfig.custom().limitForPeriod(Math.max(1, part))
                    .limitRefreshPeriod(Duration.ofSeconds(1)).timeoutDuration(Duration.ZERO).build();
            SemaphoreBasedRateLimiter limiter = new SemaphoreBasedRateLimiter("key-" + id, config, refills);
            if (registry.find(limiter.getName()).isEmpty()) {
                registry.rateLimiter(limiter.getName(), config);
            }
            registry.replace(limiter.getName(), limiter);
            return new Limiter(perSecond, limiter, new AtomicInteger(part));
        });
    }

    @Override
    public void close() {
        refills.shutdownNow();
    }
}
