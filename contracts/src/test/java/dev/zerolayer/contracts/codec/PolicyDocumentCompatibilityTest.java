package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.FallbackAlerting;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import java.util.List;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Records written before a field existed still decode, with its default (policy, scoring, tier limits, registrations). */
class PolicyDocumentCompatibilityTest {

    @Test
    void olderPolicyRecordsDecodeWithDefaultRefusalHandlingAndAlerting() throws Exception {
        ObjectNode event = (ObjectNode) EventCodec.mapper().readTree(EventCodecGoldenTest.read("fallback-policy"));
        ObjectNode document = (ObjectNode) event.get("document");
        document.remove("refusalFallback");
        document.remove("alerting");
        document.remove("scoring");
        document.remove("peakShapingTier");

        FallbackPolicy decoded = EventCodec.decode(
                EventCodec.mapper().writeValueAsString(event).getBytes(StandardCharsets.UTF_8), FallbackPolicy.class);

        assertThat(decoded.document().refusalFallback()).isEqualTo(RefusalFallback.defaults());
        assertThat(decoded.document().alerting()).isEqualTo(FallbackAlerting.defaults());
        assertThat(decoded.document().scoring()).isEqualTo(Scoring.defaults());
        assertThat(decoded.document().shapedTier()).isEqualTo("sonnet");
        assertThat(decoded.document()).isEqualTo(PolicyDocument.defaults());
    }

    @Test
    void olderTierLimitsAndRegistrationsDecodeWithTheirDefaults() throws Exception {
        ObjectNode event = (ObjectNode) EventCodec.mapper().readTree(EventCodecGoldenTest.read("fallback-policy"));
        ObjectNode limits = (ObjectNode) event.get("document").get("limits");
        limits.properties().forEach(tier -> ((ObjectNode) tier.getValue()).remove(List.of("answerMsPerToken",
                "contextTokens")));
        FallbackPolicy decoded = EventCodec.decode(
                EventCodec.mapper().writeValueAsString(event).getBytes(StandardCharsets.UTF_8), FallbackPolicy.class);
        assertThat(decoded.document().limits().get("haiku").contextTokens()).isEqualTo(TierLimits.DEFAULT_CONTEXT_TOKENS);
        assertThat(decoded.document().limits().get("haiku").answerMsPerToken())
                .isEqualTo(TierLimits.DEFAULT_ANSWER_MS_PER_TOKEN);

        ObjectNode registration = (ObjectNode) EventCodec.mapper().readTree(EventCodecGoldenTest.read(
                "node-registration"));
        registration.remove(List.of("credentialRef", "adapters", "costPerMillionTokens", "prefixCache"));
        NodeRegistration older = EventCodec.decode(EventCodec.mapper().writeValueAsString(registration)
                .getBytes(StandardCharsets.UTF_8), NodeRegistration.class);
        assertThat(older.credentialRef()).isNull();
        assertThat(older.adapters()).isEmpty();
        assertThat(older.costPerMillionTokens()).isNull();
        assertThat(older.prefixCache()).isNull();
    }

    @Test
    void refusalModesAreLowerCaseOnTheWire() throws Exception {
        PolicyDocument defaults = PolicyDocument.defaults();
        PolicyDocument annotate = new PolicyDocument(defaults.tiers(), defaults.tierTable(), defaults.chains(),
                defaults.standbyClusters(), defaults.thresholds(), defaults.limits(), defaults.resilience(),
                defaults.apiKeyOverrides(), new RefusalFallback(RefusalFallback.Mode.RETRY_NEXT_TIER, "x"),
                defaults.alerting());
        String json = EventCodec.mapper().writeValueAsString(annotate);
        assertThat(json).contains("\"mode\":\"retry_next_tier\"");
        assertThat(EventCodec.mapper().readValue(json, PolicyDocument.class)).isEqualTo(annotate);
    }
}
