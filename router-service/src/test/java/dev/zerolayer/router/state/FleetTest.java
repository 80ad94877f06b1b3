package dev.zerolayer.router.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.dispatch.NodeGuards;
import dev.zerolayer.routing.decision.NodeCandidate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

/** Fresh node-health records are trusted; records older than the policy's viewStaleMs give way to own observations. */
class FleetTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static NodeHealth record(String node, NodeState state, double score, double load, Instant at) {
        NodeRegistration registration = NodeRegistration.of(node, "haiku", "haiku-l4", null, "http://127.0.0.1:1",
                UpstreamProtocol.ANTHROPIC, "m", 8, "test");
        return new NodeHealth(UUID.randomUUID().toString(), at, 1, node, registration, state, score, List.of(), null,
                load, 5, 0.1, null, List.of(), 10, true, 1);
    }

    @Test
    void aStaleRecordCountsAsRoutableWithANeutralScoreAndNoReportedLoad() {
        EventReader reader = new EventReader(new SimpleMeterRegistry());
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        CompactedView<NodeHealth> view = new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader,
                clock);
        CompactedView<FallbackPolicy> policies = new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
        for (NodeHealth health : List.of(record("fresh", NodeState.UNAVAILABLE, 0.2, 0.9, NOW.minusSeconds(2)),
                record("stale", NodeState.UNAVAILABLE, 0.2, 0.9, NOW.minusSeconds(11)))) {
            view.accept(MessageBuilder.withPayload(EventCodec.encode(health))
                    .setHeader(KafkaHeaders.RECEIVED_KEY, health.key().getBytes(StandardCharsets.UTF_8)).build());
        }
        Fleet fleet = new Fleet(view, new NodeGuards(new SimpleMeterRegistry()), new ActivePolicy(policies), clock);

        Map<String, NodeCandidate> candidates = fleet.candidates().stream()
                .collect(Collectors.toMap(NodeCandidate::nodeId, Function.identity()));

        NodeCandidate fresh = candidates.get("fresh");
        assertThat(fresh.state()).isEqualTo(NodeState.UNAVAILABLE);
        assertThat(fresh.healthScore()).isEqualTo(0.2);
        assertThat(fresh.load()).isEqualTo(0.9);
        assertThat(fresh.clusterLoadSpike()).isTrue();
        NodeCandidate stale = candidates.get("stale");
        assertThat(stale.state()).isEqualTo(NodeState.HEALTHY);
        assertThat(stale.healthScore()).isEqualTo(Fleet.STALE_SCORE);
        assertThat(stale.load()).isZero();
        assertThat(stale.queueDepth()).isZero();
        assertThat(stale.clusterLoadSpike()).isFalse();
        assertThat(fleet.staleRecords()).isEqualTo(1);
    }
}
