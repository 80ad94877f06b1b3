package dev.zerolayer.console.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

class FleetTest {

    private static final Instant T0 = Instant.parse("2026-12-03T02:00:00Z");

    private final EventReader reader = new EventReader(new SimpleMeterRegistry());
    private final CompactedView<NodeHealth> health = new CompactedView<>(Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader,
            Clock.systemUTC());
    private final Fleet fleet = new Fleet(health, node -> List.of(), reader, null);

    @Test
    void showsEachNodesBreakerAsTheNewestDecisionThatWeighedItReported() {
        // Given three nodes, one of which no decision ever weighs
        for (String node : List.of("n1", "n2", "n3")) {
            health.accept(MessageBuilder.withPayload(EventCodec.encode(health(node)))
                    .setHeader(KafkaHeaders.RECEIVED_KEY, node.getBytes(StandardCharsets.UTF_8))
                    .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.TELEMETRY_NODE_HEALTH).build());
        }
        assertThat(fleet.nodes()).allMatch(row -> row.breakerOpen() == null && row.breakerSince() == null);

        // When n2's breaker opens at t+1 and is reported open again at t+5, n1's stays closed
        fleet.decided(decision(T0, candidate("n1", false), candidate("n2", false)));
        fleet.decided(decision(T0.plusSeconds(1), candidate("n1", false), candidate("n2", true)));
        fleet.decided(decision(T0.plusSeconds(5), candidate("n1", false), candidate("n2", true)));

        // Then n2 shows open since the first report of it, n1 closed since it was first seen, n3 unknown
        assertThat(row("n1").breakerOpen()).isFalse();
        assertThat(row("n1").breakerSince()).isEqualTo(T0);
        assertThat(row("n2").breakerOpen()).isTrue();
        assertThat(row("n2").breakerSince()).isEqualTo(T0.plusSeconds(1));
        assertThat(row("n3").breakerOpen()).isNull();

        // When a decision made before those is read late, and a record without the field arrives
        fleet.decided(decision(T0.plusMillis(500), candidate("n2", false)));
        fleet.decided(decision(T0.plusSeconds(6), candidate("n2", null)));

        // Then neither changes what the console shows
        assertThat(row("n2").breakerOpen()).isTrue();
        assertThat(row("n2").breakerSince()).isEqualTo(T0.plusSeconds(1));

        // When a later decision finds it closed again
        fleet.decided(decision(T0.plusSeconds(9), candidate("n2", false)));

        // Then it is closed since then
        assertThat(row("n2").breakerOpen()).isFalse();
        assertThat(row("n2").breakerSince()).isEqualTo(T0.plusSeconds(9));
    }

    private NodeRow row(String node) {
        return fleet.nodes().stream().filter(row -> row.nodeId().equals(node)).findFirst().orElseThrow();
    }

    private static CandidateScore candidate(String node, Boolean breakerOpen) {
        return new CandidateScore(node, "sonnet", "c1", Boolean.TRUE.equals(breakerOpen) ? "circuit open" : null,
                0.5, Map.of(), Map.of(), breakerOpen);
    }

    private static RoutingDecision decision(Instant at, CandidateScore... candidates) {
        return RoutingDecision.builder().eventId("e-" + at.toEpochMilli()).occurredAt(at).requestId("r-" + at)
                .apiKeyId("k").clientApi("anthropic").requestedModel("claude-sonnet-4-5").tier("sonnet")
                .cluster("c1").node("n1").nodesTried(List.of("n1")).status(DecisionStatus.OK).httpStatus(200)
                .candidates(Arrays.asList(candidates)).build();
    }

    private static NodeHealth health(String node) {
        NodeRegistration registration = new NodeRegistration("r-" + node, T0, 1, node, "sonnet", "c1", null,
                "http://127.0.0.1:1", UpstreamProtocol.ANTHROPIC, "claude-sonnet-4-5", 16, "4xA100-40G");
        return new NodeHealth("h-" + node, T0, 1, node, registration, NodeState.HEALTHY, 0.95, List.of(), null, 0.4,
                3, 0.5, null, List.of(), 40, false, 4);
    }
}
