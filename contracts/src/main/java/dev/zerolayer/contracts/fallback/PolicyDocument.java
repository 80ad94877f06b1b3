package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import java.util.List;
import java.util.Map;

/**
 * The fallback policy an operator edits: tiers, tier table, fallback chains, standby clusters, thresholds, per-tier
 * limits, resilience settings, per-API-key overrides, refusal handling and fallback-rate alerting.
 * {@link #defaults()} is SPEC's built-in policy. {@code refusalFallback} and {@code alerting} came later: a record
 * without them (written before they existed) still decodes, with their defaults.
 */
public record PolicyDocument(
        List<TierSpec> tiers,
        List<TierRule> tierTable,
        Map<String, List<String>> chains,
        Map<String, String> standbyClusters,
        Thresholds thresholds,
        Map<String, TierLimits> limits,
        Resilience resilience,
        Map<String, PolicyOverride> apiKeyOverrides,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) RefusalFallback refusalFallback,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) FallbackAlerting alerting,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Scoring scoring,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) String peakShapingTier) {

    public PolicyDocument {
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
        tierTable = tierTable == null ? List.of() : List.copyOf(tierTable);
        chains = chains == null ? Map.of() : Map.copyOf(chains);
        standbyClusters = standbyClusters == null ? Map.of() : Map.copyOf(standbyClusters);
        limits = limits == null ? Map.of() : Map.copyOf(limits);
        apiKeyOverrides = apiKeyOverrides == null ? Map.of() : Map.copyOf(apiKeyOverrides);
        refusalFallback = refusalFallback == null ? RefusalFallback.defaults() : refusalFallback;
        alerting = alerting == null ? FallbackAlerting.defaults() : alerting;
        scoring = scoring == null ? Scoring.defaults() : scoring;
    }

    /** A policy with the default node scoring and peak-shaping tier. */
    public PolicyDocument(List<TierSpec> tiers, List<TierRule> tierTable, Map<String, List<String>> chains,
            Map<String, String> standbyClusters, Thresholds thresholds, Map<String, TierLimits> limits,
            Resilience resilience, Map<String, PolicyOverride> apiKeyOverrides, RefusalFallback refusalFallback,
            FallbackAlerting alerting) {
        this(tiers, tierTable, chains, standbyClusters, thresholds, limits, resilience, apiKeyOverrides,
                refusalFallback, alerting, null, null);
    }

    /** A policy with the default refusal handling and alerting. */
    public PolicyDocument(List<TierSpec> tiers, List<TierRule> tierTable, Map<String, List<String>> chains,
            Map<String, String> standbyClusters, Thresholds thresholds, Map<String, TierLimits> limits,
            Resilience resilience, Map<String, PolicyOverride> apiKeyOverrides) {
        this(tiers, tierTable, chains, standbyClusters, thresholds, limits, resilience, apiKeyOverrides, null, null,
                null, null);
    }

    /**
     * The tier peak shaping watches (SPEC rule 5: its mid-complexity traffic goes one tier down while it is busy): the
     * policy's {@code peakShapingTier}, else the second tier; null when the policy has fewer than two tiers.
     */
    public String shapedTier() {
        if (peakShapingTier != null) {
            return peakShapingTier;
        }
        return tiers.size() < 2 ? null : tiers.get(1).name();
    }

    public static PolicyDocument defaults() {
        return new PolicyDocument(
                List.of(
                        new TierSpec("haiku", List.of("claude-haiku-4-5", "claude-3-5-haiku-latest", "haiku"),
                                List.of("haiku-l4")),
                        new TierSpec("sonnet", List.of("claude-sonnet-4-5", "claude-3-7-sonnet-latest", "sonnet"),
                                List.of("sonnet-a100-40g")),
                        new TierSpec("opus", List.of("claude-opus-4-1", "claude-3-opus-latest", "opus"),
                                List.of("opus-a100-80g"))),
                List.of(
                        new TierRule(512, 0.30, "haiku"),
                        new TierRule(2048, 0.60, "sonnet"),
                        new TierRule(Integer.MAX_VALUE, 1.0, "opus")),
                Map.of(
                        "opus", List.of("sonnet", "haiku"),
                        "sonnet", List.of("haiku"),
                        "haiku", List.of("sonnet")),
                Map.of("sonnet-a100-40g", "sonnet-standby"),
                Thresholds.defaults(),
                Map.of(
                        "haiku", new TierLimits(2_000, 30_000),
                        "sonnet", new TierLimits(4_000, 60_000),
                        "opus", new TierLimits(8_000, 120_000)),
                Resilience.defaults(),
                Map.of(),
                RefusalFallback.defaults(),
                FallbackAlerting.defaults(),
                Scoring.defaults(),
                null);
    }

    /**
     * The policy as one API key sees it: each field its override sets replaces the policy's field of that name, or
     * that field of a policy part ({@code hopLimit} of {@link Resilience}); its tier limits replace those tiers' limits
     * only; every other field is the policy's, whatever fields the policy gains later. Without an override that
     * changes routing (or for a null key) the policy itself.
     */
    public PolicyDocument forApiKey(String keyId) {
        PolicyOverride override = keyId == null ? null : apiKeyOverrides.get(keyId);
        if (override == null || !override.changesRouting()) {
            return this;
        }
        return OverrideMerge.apply(this, override);
    }
}
