package dev.zerolayer.contracts.codec;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.KeyDemand;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One fixed instance of every event type, the content of the golden files. */
final class SampleEvents {

    static final Instant AT = Instant.parse("2026-11-29T12:00:00.123Z");

    static final NodeRegistration REGISTRATION = new NodeRegistration("evt-reg-1", AT, 1, "sonnet-1", "sonnet",
            "sonnet-a100-40g", null, "http://127.0.0.1:18101", UpstreamProtocol.ANTHROPIC, "claude-sonnet-4-5", 16,
            "4xA100-40G");

    static Map<String, Event> all() {
        Map<String, Event> events = new LinkedHashMap<>();
        events.put("node-registration", REGISTRATION);
        events.put("telemetry-sample", new TelemetrySample("evt-sample-1", AT, 1, "sonnet-1", 0.62, 1.5e9, 1.4e9, 0.3,
                30_000, 10_960, 0.12, 7, 2, 0.41, false, 0));
        events.put("node-health", new NodeHealth("evt-health-1", AT, 1, "sonnet-1", REGISTRATION, NodeState.UNAVAILABLE,
                0.35, List.of("sm_active>0.95 for 500ms"), "gpu_bandwidth_bottleneck", 0.97, 12, 0.88, null,
                List.of(31_000L, 29_500L), 40, false,
                3).withWriter(new dev.zerolayer.contracts.event.Writer("telemetry-0-4711", 7)));
        events.put("routing-decision", RoutingDecision.builder().eventId("evt-dec-1").occurredAt(AT).schemaVersion(1)
                .requestId("req-7f3a").sessionHash("sess-9c1e").apiKeyId("key-ab12").clientApi("anthropic")
                .requestedModel("claude-sonnet-4-5").streaming(true).tier("sonnet").cluster("sonnet-a100-40g")
                .node("sonnet-2").nodesTried(List.of("sonnet-1", "sonnet-2")).tokenCount(812).complexityScore(0.52)
                .complexityModelVersion("builtin-1").policyVersion(3).rulesFired(List.of("tier_table", "node_score"))
                .fallbackTriggered(false).fallbackReason(null).warning(null).cacheHit(true)
                .prefixBlockHashes(List.of(1234567890123L, -42L)).routeTimeMicros(180).ttfbMillis(95)
                .chunkIntervalVarianceMs2(3.5).totalLatencyMillis(2_400).inputTokens(812).outputTokens(256)
                .status(DecisionStatus.OK).httpStatus(200)
                .recoveries(List.of(new Recovery(Recovery.Kind.CONTINUED, "gpu-a", "gpu-b", 42, "upstream_incomplete",
                        35)))
                .candidates(List.of(new CandidateScore("sonnet-2", "sonnet", "sonnet-a100-40g", null, 0.82,
                        Map.of("prefix", 0.5), Map.of("prefix", 0.25), false), new CandidateScore("sonnet-1", "sonnet",
                        "sonnet-a100-40g", "state UNAVAILABLE", 0, Map.of(), Map.of(), true)))
                .build());
        events.put("complexity-model", new ComplexityModel("evt-model-1", AT, 1, "builtin-1", "cl100k_base", -2.1,
                Map.of("code", 1.4, "math", 1.2), new ComplexityModel.Ngrams("hashed-ngrams-v1", 4, 0.01,
                        "AAECAwQFBgcICf8A/v0Afw=="), new ComplexityModel.ScoreMap(List.of(0.0, 0.12, 0.4, 1.0),
                        List.of(0.0, 0.1, 0.65, 1.0))));
        events.put("kv-cache-event", new KvCacheEvent("evt-kv-1", AT, 1, "haiku-1", 17, KvEventType.BLOCK_STORED,
                List.of(111L, 222L), 99L, 16));
        events.put("kv-index-entry", new KvIndexEntry("evt-idx-1", AT, 1, 222L, 111L, List.of("haiku-1", "haiku-2"),
                new Writer("cache-service-1", 4)));
        events.put("session-entry", new SessionEntry("evt-sess-1", AT, 1, "sess-9c1e", "sonnet-2",
                List.of(List.of(111L, 222L), List.of(111L, 333L)), 2).withWriter(new Writer("cache-service-1", 4)));
        events.put("prewarm-command", new PrewarmCommand("evt-pw-1", AT, 1, "sonnet-2", "sess-9c1e",
                List.of(111L, 222L), "3 similar prompts"));
        events.put("fallback-policy", new FallbackPolicy("evt-pol-1", AT, 1, 3, "admin", PolicyDocument.defaults(),
                new dev.zerolayer.contracts.event.Writer("fallback-1-99", 12)));
        events.put("fallback-alert", new FallbackAlert("evt-alert-1", AT, 1, "tier:sonnet",
                FallbackAlert.AlertStatus.FIRING, 0.071, 0.05, 300, AT.minusSeconds(300)));
        events.put("key-demand", new KeyDemand("evt-kd-1", AT, 1, "router-service-1-4f2a", 250,
                Map.of("key-7f3a", 42L, "anonymous", 3L)));
        return events;
    }

    private SampleEvents() {
    }
}
