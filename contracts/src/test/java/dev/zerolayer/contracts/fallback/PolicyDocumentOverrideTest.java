package dev.zerolayer.contracts.fallback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyDocumentOverrideTest {

    @Test
    void aKeysOverrideReplacesThresholdsAndTheNamedTiersLimitsOnly() {
        PolicyDocument d = PolicyDocument.defaults();
        Thresholds t = d.thresholds();
        Thresholds strict = new Thresholds(0.9, 0.8, t.peakBandLow(), t.peakBandHigh(), t.peakLoadMark(),
                t.loadSpikeRise(), t.loadSpikeWindowMs(), t.smUnavailableAbove(), t.smRecoverBelow(), t.smHoldMs(),
                t.sampleStaleMs(), t.viewStaleMs(), t.warmupDefaultMs(), t.warmupProbeLeadMs(), t.cacheHitBlockShare());
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
}
