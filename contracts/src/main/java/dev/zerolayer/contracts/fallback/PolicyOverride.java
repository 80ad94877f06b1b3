package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one API key changes of the policy; a null (or absent) field keeps the policy's value, a set one replaces the
 * policy's field of the same name (or that field of a policy part, as {@code hopLimit} of its resilience settings) in
 * {@link PolicyDocument#forApiKey}. A key can have its own
 * thresholds, tier limits (TTFB, deadline), request rate, tier table, fallback chains, hop limit, refusal handling and
 * node scoring;
 * the fleet's shape (tiers, clusters, standbys) and the per-node breaker and bulkhead settings are shared by all keys.
 * The fields after {@code requestsPerSecond} came later: records written before them decode with nulls.
 */
public record PolicyOverride(
        Thresholds thresholds,
        Map<String, TierLimits> limits,
        Integer requestsPerSecond,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) List<TierRule> tierTable,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Map<String, List<String>> chains,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Integer hopLimit,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) RefusalFallback refusalFallback,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Scoring scoring) {

    /** Fields read by the router's per-key rate limits, not merged into the policy. */
    public static final Set<String> NOT_MERGED = Set.of("requestsPerSecond");

    /** Map fields merged entry by entry: a key's limits for one tier replace that tier's limits only. */
    public static final Set<String> MERGED_BY_KEY = Set.of("limits");

    public PolicyOverride {
        limits = limits == null ? Map.of() : Map.copyOf(limits);
        tierTable = tierTable == null ? null : List.copyOf(tierTable);
        chains = chains == null ? null : Map.copyOf(chains);
    }

    /** An override of thresholds, limits and request rate only. */
    public PolicyOverride(Thresholds thresholds, Map<String, TierLimits> limits, Integer requestsPerSecond) {
        this(thresholds, limits, requestsPerSecond, null, null, null, null, null);
    }

    /** An override without its own node scoring. */
    public PolicyOverride(Thresholds thresholds, Map<String, TierLimits> limits, Integer requestsPerSecond,
            List<TierRule> tierTable, Map<String, List<String>> chains, Integer hopLimit,
            RefusalFallback refusalFallback) {
        this(thresholds, limits, requestsPerSecond, tierTable, chains, hopLimit, refusalFallback, null);
    }

    /**
     * Whether it changes anything the decision or the dispatch reads: any field but those {@link #NOT_MERGED} set (a
     * map {@link #MERGED_BY_KEY} non-empty).
     */
    public boolean changesRouting() {
        return OverrideMerge.changesPolicy(this);
    }
}
