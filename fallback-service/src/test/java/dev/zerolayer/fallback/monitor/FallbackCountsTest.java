package dev.zerolayer.fallback.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.routing.stats.TierTally.TierStats;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.PoisonEventException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/** Decisions count under their tier (no tier: "none"), fallbacks and their rate apart; poison changes nothing. */
class FallbackCountsTest {

    private final FallbackCounts counts = new FallbackCounts(new EventReader(new SimpleMeterRegistry()));

    @Test
    void countsDecisionsAndFallbacksPerTierAndDecisionsWithoutTierUnderNone() {
        // Given decisions of two tiers, one fallback, and one rejected before routing
        counts.accept(message(decision("haiku", false)));
        counts.accept(message(decision("haiku", true)));
        counts.accept(message(decision("opus", false)));
        counts.accept(message(decision(null, false)));

        // Then each tier has its counts, and the total sums them
        assertThat(counts.tier("haiku")).isEqualTo(TierStats.of(2, 1));
        assertThat(counts.tier("opus")).isEqualTo(TierStats.of(1, 0));
        assertThat(counts.tier(FallbackCounts.NO_TIER)).isEqualTo(TierStats.of(1, 0));
        assertThat(counts.tier("sonnet")).isEqualTo(TierStats.of(0, 0));
        assertThat(counts.byTier()).containsOnlyKeys("haiku", "opus", FallbackCounts.NO_TIER);
        assertThat(counts.total()).isEqualTo(TierStats.of(4, 1));
        assertThat(counts.tier("haiku").fallbackRate()).isEqualTo(0.5);
        assertThat(counts.tier("sonnet").fallbackRate()).isZero();
    }

    @Test
    void poisonIsRefusedAndCountsNothing() {
        // When a record is not JSON
        Message<byte[]> junk = MessageBuilder.withPayload("{nope".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_KEY, "req-1".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.ROUTER_DECISIONS).build();

        // Then it is refused for dead-lettering and nothing is counted
        assertThatThrownBy(() -> counts.accept(junk)).isInstanceOf(PoisonEventException.class)
                .hasMessageContaining("malformed");
        assertThat(counts.total()).isEqualTo(TierStats.of(0, 0));
    }

    private static Message<byte[]> message(RoutingDecision decision) {
        return MessageBuilder.withPayload(EventCodec.encode(decision))
                .setHeader(KafkaHeaders.RECEIVED_KEY, decision.key().getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.ROUTER_DECISIONS).build();
    }

    private static RoutingDecision decision(String tier, boolean fallback) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId("req-" + UUID.randomUUID()).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-haiku-4-5").tier(tier).tokenCount(12).complexityScore(0.1)
                .complexityModelVersion("m1").policyVersion(1).fallbackTriggered(fallback).routeTimeMicros(90)
                .ttfbMillis(20).chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30)
                .status(tier == null ? DecisionStatus.REJECTED : DecisionStatus.OK).httpStatus(tier == null ? 400 : 200)
                .build();
    }
}
