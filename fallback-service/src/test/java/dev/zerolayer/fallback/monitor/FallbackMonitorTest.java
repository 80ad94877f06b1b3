package dev.zerolayer.fallback.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackAlert.AlertStatus;
import dev.zerolayer.contracts.fallback.FallbackAlerting;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Alert maths with a fake clock: fire after the sustain time above the threshold, resolve below, ignore tiny samples. */
class FallbackMonitorTest {

    private static final FallbackAlerting ALERTING = new FallbackAlerting(0.05, 300, 300, 100);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final FallbackMonitor monitor = new FallbackMonitor(clock, 100, Set.of(ScopeKind.TIER,
            ScopeKind.API_KEY), 300);

    private void decisions(String tier, String key, int count, int fallbacks) {
        for (int i = 0; i < count; i++) {
            monitor.record(decision(tier, key, i < fallbacks, DecisionStatus.OK, clock.instant()));
        }
    }

    @Test
    void firesAfterStayingAboveForTheSustainTimeAndResolvesWhenItDrops() {
        decisions("sonnet", "k1", 100, 10);                // 10 % from t0
        assertThat(monitor.evaluate(ALERTING)).isEmpty();   // above, pending since t0
        assertThat(monitor.snapshot(ALERTING).tiers().get("sonnet").state()).isEqualTo("pending");

        clock.advance(Duration.ofSeconds(150));
        decisions("sonnet", "k1", 100, 10);
        assertThat(monitor.evaluate(ALERTING)).isEmpty();

        clock.advance(Duration.ofSeconds(149));             // 299 s above: not yet
        assertThat(monitor.evaluate(ALERTING)).isEmpty();

        clock.advance(Duration.ofSeconds(1));               // 300 s above: fires (t0 bucket just left the window)
        List<FallbackAlert> fired = monitor.evaluate(ALERTING);
        assertThat(fired).extracting(FallbackAlert::scope).containsExactlyInAnyOrder("tier:sonnet", "apiKey:k1");
        FallbackAlert tier = fired.stream().filter(a -> a.scope().equals("tier:sonnet")).findFirst().orElseThrow();
        assertThat(tier.status()).isEqualTo(AlertStatus.FIRING);
        assertThat(tier.fallbackRate()).isEqualTo(0.10);
        assertThat(tier.threshold()).isEqualTo(0.05);
        assertThat(tier.windowSeconds()).isEqualTo(300);
        assertThat(tier.since()).isEqualTo(Instant.parse("2026-11-29T12:00:00Z"));
        assertThat(monitor.firingCount()).isEqualTo(2);
        assertThat(monitor.firing("tier:sonnet")).isTrue();
        assertThat(monitor.evaluate(ALERTING)).isEmpty();   // fires once

        decisions("sonnet", "k1", 200, 0);                  // 10 / 300 = 3.3 %
        List<FallbackAlert> resolved = monitor.evaluate(ALERTING);
        assertThat(resolved).extracting(FallbackAlert::status).containsOnly(AlertStatus.RESOLVED);
        assertThat(resolved).extracting(FallbackAlert::scope).containsExactlyInAnyOrder("tier:sonnet", "apiKey:k1");
        assertThat(monitor.firingCount()).isZero();
    }

    @Test
    void aDipBelowTheThresholdRestartsTheSustainTime() {
        decisions("opus", "k1", 100, 10);
        monitor.evaluate(ALERTING);
        clock.advance(Duration.ofSeconds(200));
        decisions("opus", "k1", 300, 0);                    // 10 / 400 = 2.5 %
        assertThat(monitor.evaluate(ALERTING)).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        decisions("opus", "k1", 100, 40);                   // 50 / 500 = 10 % again, from here
        monitor.evaluate(ALERTING);
        clock.advance(Duration.ofSeconds(120));
        decisions("opus", "k1", 100, 10);
        assertThat(monitor.evaluate(ALERTING)).isEmpty();   // only 120 s above since the dip
    }

    @Test
    void tinySamplesNeverAlert() {
        decisions("haiku", "k2", 20, 20);                   // 100 % of only 20 decisions
        monitor.evaluate(ALERTING);
        clock.advance(Duration.ofSeconds(299));
        decisions("haiku", "k2", 20, 20);
        clock.advance(Duration.ofSeconds(1));
        assertThat(monitor.evaluate(ALERTING)).isEmpty();
        assertThat(monitor.snapshot(ALERTING).tiers().get("haiku").state()).isEqualTo("insufficient");
    }

    @Test
    void ratesPerReasonAreSharesOfAllDecisionsAndRejectedOrExplainedDecisionsDoNotCount() {
        decisions("sonnet", "k1", 90, 0);
        monitor.record(decision("haiku", "k1", true, DecisionStatus.OK, clock.instant()));
        for (int i = 0; i < 50; i++) {
            monitor.record(decision("haiku", "k1", true, DecisionStatus.REJECTED, clock.instant()));
            monitor.record(decision("haiku", "k1", true, DecisionStatus.EXPLAINED, clock.instant()));
        }
        FallbackMonitor.Snapshot snapshot = monitor.snapshot(ALERTING);
        assertThat(snapshot.all().decisions()).isEqualTo(91);
        assertThat(snapshot.reasons().get("target_cluster_unavailable"))
                .satisfies(r -> assertThat(r.fallbacks()).isEqualTo(1))
                .satisfies(r -> assertThat(r.decisions()).isEqualTo(91));
        assertThat(snapshot.apiKeys().get("k1").decisions()).isEqualTo(91);
    }

    @Test
    void decisionsOlderThanTheWindowAreCountedAsLateAndFutureOnesAsNow() {
        monitor.record(decision("sonnet", "k1", true, DecisionStatus.OK, clock.instant().minusSeconds(400)));
        monitor.record(decision("sonnet", "k1", true, DecisionStatus.OK, clock.instant().plusSeconds(30)));
        FallbackMonitor.Snapshot snapshot = monitor.snapshot(ALERTING);
        assertThat(snapshot.lateDecisions()).isEqualTo(1);
        assertThat(snapshot.tiers().get("sonnet").decisions()).isEqualTo(1);
    }

    @Test
    void apiKeysBeyondTheCapShareOneScopeAndIdleScopesAreForgotten() {
        FallbackMonitor small = new FallbackMonitor(clock, 2, Set.of(ScopeKind.API_KEY), 300);
        for (String key : List.of("a", "b", "c", "d")) {
            small.record(decision("sonnet", key, false, DecisionStatus.OK, clock.instant()));
        }
        assertThat(small.snapshot(ALERTING).apiKeys()).containsOnlyKeys("a", "b", FallbackMonitor.OTHER_KEYS);
        assertThat(small.snapshot(ALERTING).apiKeys().get(FallbackMonitor.OTHER_KEYS).decisions()).isEqualTo(2);

        clock.advance(Duration.ofSeconds(301));
        small.evaluate(ALERTING);
        assertThat(small.snapshot(ALERTING).apiKeys()).isEmpty();
    }

    static RoutingDecision decision(String tier, String key, boolean fellBack, DecisionStatus status, Instant at) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(at)
                .requestId("req-" + UUID.randomUUID()).sessionHash("s").apiKeyId(key).clientApi("anthropic")
                .requestedModel("claude-" + tier).tier(tier).cluster(tier + "-c").node(tier + "-1")
                .nodesTried(List.of(tier + "-1")).tokenCount(12).complexityScore(0.1).complexityModelVersion("m1")
                .policyVersion(1).rulesFired(List.of("tier_table:" + tier)).fallbackTriggered(fellBack)
                .fallbackReason(fellBack ? "target_cluster_unavailable" : null).routeTimeMicros(90).ttfbMillis(20)
                .chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30).status(status)
                .httpStatus(200).build();
    }
}
