package dev.zerolayer.complexity.observation;

import static dev.zerolayer.platform.testing.BatchMessages.batch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.InboundRecord;
import dev.zerolayer.platform.testing.BatchMessages.Rec;
import dev.zerolayer.routing.stats.TierTally.TierStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Decisions are counted under their tier (no tier: under "none"), fallbacks apart; poison is dead-lettered alone. */
class ObservedDecisionsTest {

    private final List<InboundRecord> deadLettered = new ArrayList<>();
    private final DeadLetters deadLetters = new DeadLetters(null, Topics.COMPLEXITY) {
        @Override
        public boolean send(InboundRecord record, String reason) {
            deadLettered.add(record);
            return true;
        }
    };
    private final List<RoutingDecision> heard = new ArrayList<>();
    private final ObservedDecisions observed = new ObservedDecisions(new EventReader(new SimpleMeterRegistry()),
            deadLetters, heard::add);

    @Test
    void countsDecisionsAndFallbacksPerTierAndDecisionsWithoutTierUnderNone() {
        // Given decisions of two tiers, one fallback, and one rejected before routing, in one batch
        observed.accept(batch(Topics.ROUTER_DECISIONS, encoded(decision("haiku", false)),
                encoded(decision("haiku", true)), encoded(decision("opus", false)), encoded(decision(null, false))));

        // Then each tier has its counts, the total sums them, and the listener heard every decision
        assertThat(observed.tier("haiku")).isEqualTo(TierStats.of(2, 1));
        assertThat(observed.tier("opus")).isEqualTo(TierStats.of(1, 0));
        assertThat(observed.tier(ObservedDecisions.NO_TIER)).isEqualTo(TierStats.of(1, 0));
        assertThat(observed.tier("sonnet")).isEqualTo(TierStats.of(0, 0));
        assertThat(observed.byTier()).containsOnlyKeys("haiku", "opus", ObservedDecisions.NO_TIER);
        assertThat(observed.total()).isEqualTo(TierStats.of(4, 1));
        assertThat(heard).hasSize(4);
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void poisonIsDeadLetteredAloneAndTheRestOfItsBatchCounts() {
        // When a record that is not JSON arrives between two good ones
        observed.accept(batch(Topics.ROUTER_DECISIONS, encoded(decision("haiku", false)),
                new Rec("req-junk", "{nope".getBytes(StandardCharsets.UTF_8)), encoded(decision("opus", true))));

        // Then only it is dead-lettered, with its position, and both good ones count
        assertThat(deadLettered).singleElement().satisfies(record -> {
            assertThat(record.offset()).isEqualTo(1);
            assertThat(record.key()).isEqualTo("req-junk");
            assertThat(record.topic()).isEqualTo(Topics.ROUTER_DECISIONS);
        });
        assertThat(observed.total()).isEqualTo(TierStats.of(2, 1));
    }

    private static Rec encoded(RoutingDecision decision) {
        return new Rec(decision.key(), EventCodec.encode(decision));
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
