package dev.zerolayer.cache;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/** Events as the other services publish them, for tests. */
public final class TestEvents {

    private TestEvents() {
    }

    public static KvCacheEvent kv(String node, long sequence, KvEventType type, Long... hashes) {
        return new KvCacheEvent(UUID.randomUUID().toString(), Instant.now(), 1, node, sequence, type, List.of(hashes),
                null, 16);
    }

    /** A decision that sent a prompt with these leading blocks to a node, in a session. */
    public static RoutingDecision decision(String session, String node, boolean cacheHit, long... blocks) {
        return decision(session, node, cacheHit, DecisionStatus.OK, blocks);
    }

    public static RoutingDecision decision(String session, String node, boolean cacheHit, DecisionStatus status,
            long... blocks) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId("req-" + UUID.randomUUID()).sessionHash(session).apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-haiku-4-5").tier("haiku").cluster("haiku-l4").node(node)
                .nodesTried(node == null ? List.of() : List.of(node)).tokenCount(12).complexityScore(0.1)
                .complexityModelVersion("m1").policyVersion(1).rulesFired(List.of("tier_table")).cacheHit(cacheHit)
                .prefixBlockHashes(Arrays.stream(blocks).boxed().toList()).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30).status(status)
                .httpStatus(200).build();
    }

    public static NodeHealth health(String node, NodeState state, double load) {
        return health(node, state, load, Instant.now());
    }

    public static NodeHealth health(String node, NodeState state, double load, Instant at) {
        NodeRegistration registration = NodeRegistration.of(node, "haiku", "haiku-l4", null, "http://127.0.0.1:18100",
                UpstreamProtocol.ANTHROPIC, "claude-haiku-4-5", 8, "2xL4");
        return new NodeHealth(UUID.randomUUID().toString(), at, 1, node, registration, state,
                state.routable() ? 0.9 : 0.1, List.of(), null, load, 0, 0.3, null, List.of(), 50, false, 1);
    }

    /** The event as the binder hands it to a consumer. */
    public static Message<byte[]> message(String topic, Event event) {
        return MessageBuilder.withPayload(EventCodec.encode(event))
                .setHeader(KafkaHeaders.RECEIVED_KEY, event.key().getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, topic).build();
    }
}
