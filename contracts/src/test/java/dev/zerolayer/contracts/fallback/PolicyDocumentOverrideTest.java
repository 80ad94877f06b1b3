package dev.zerolayer.contracts.fallback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyDocumentOverrideTest {

    @Test
    void aKeysOverrideReplacesThresholdsAndTheNamedTiersLimitsOnly() {
        PolicyDocument d = PolicyDocument.defaults();
        Thresholds strict = d.thresholds().toBuilder().clusterHealthMin(0.9).highComplexity(0.8).build();
        PolicyDocument withOverride = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(),
                d.thresholds(), d.limits(), d.resilience(), Map.of("key-a", new PolicyOverride(strict,
                        Map.of("opus", new TierLimits(1_000, 5_000)), 5)), d.refusalFallback(), d.alerting());

        PolicyDocument forA = withOverride.forApiKey("key-a");

        assertThat(forA.thresholds()).isEqualTo(strict);
        assertThat(forA.limits().get("opus")).isEqualTo(new TierLimits(1_000, 5_000));
        assertThat(forA.limits().get("haiku")).isEqualTo(d.limits().get("haiku"));
        assertThat(withOverride.forApiKey("key-b")).isSameAs(withOverride);
        assertThat(withOverride.forApiKey(null)).isSameAs(withOverride);
    }

    @Test
    void aKeyCanHaveItsOwnTierTableChainsHopLimitAndRefusalHandling() {
        PolicyDocument d = PolicyDocument.defaults();
        java.util.List<TierRule> haikuOnly = java.util.List.of(new TierRule(Integer.MAX_VALUE, 1.0, "haiku"));
        PolicyOverride override = new PolicyOverride(null, Map.of(), null, haikuOnly,
                Map.of("haiku", java.util.List.of()), 0, new RefusalFallback(RefusalFallback.Mode.ANNOTATE, "[x] "));
        PolicyDocument withOverride = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(),
                d.thresholds(), d.limits(), d.resilience(), Map.of("key-a", override), d.refusalFallback(),
                d.alerting());

        PolicyDocument forA = withOverride.forApiKey("key-a");

        assertThat(forA.tierTable()).isEqualTo(haikuOnly);
        assertThat(forA.chains()).containsExactly(Map.entry("haiku", java.util.List.of()));
        assertThat(forA.resilience().hopLimit()).isZero();
        assertThat(forA.resilience().breakerCooldownMs()).isEqualTo(d.resilience().breakerCooldownMs());
        assertThat(forA.refusalFallback().mode()).isEqualTo(RefusalFallback.Mode.ANNOTATE);
        assertThat(forA.thresholds()).isEqualTo(d.thresholds());
        assertThat(new PolicyOverride(null, null, 5).changesRouting()).isFalse();
    }

    @Test
    void aKeyCanHaveItsOwnNodeScoringAndKeepsThePolicysPeakShapingTier() {
        PolicyDocument d = PolicyDocument.defaults();
        Scoring costly = new Scoring(null, Map.of("cost", 1.0), null, null, 2.0);
        PolicyOverride override = new PolicyOverride(null, Map.of(), null, null, null, null, null, costly);
        PolicyDocument withOverride = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(),
                d.thresholds(), d.limits(), d.resilience(), Map.of("key-c", override), d.refusalFallback(),
                d.alerting(), d.scoring(), "opus");

        assertThat(override.changesRouting()).isTrue();
        assertThat(withOverride.forApiKey("key-c").scoring()).isEqualTo(costly);
        assertThat(withOverride.forApiKey("key-c").shapedTier()).isEqualTo("opus");
        assertThat(withOverride.forApiKey("other").scoring()).isEqualTo(Scoring.defaults());
    }
}
