package dev.zerolayer.bench.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverAnalysisTest {

    static final String NODE = "opus-a100-80g-0";
    static final String OTHER = "opus-a100-80g-1";
    static final long T0 = 1_000_000L;

    static RoutingDecision decision(long atMillis, List<String> tried, String served, DecisionStatus status) {
        return RoutingDecision.builder().eventId("e" + atMillis).occurredAt(Instant.ofEpochMilli(atMillis))
                .requestId("r" + atMillis + tried).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-opus-4-1").tier("opus").cluster("opus-a100-80g").node(served).nodesTried(tried)
                .tokenCount(10).complexityScore(0.5).complexityModelVersion("m").policyVersion(1).routeTimeMicros(10)
                .ttfbMillis(5).totalLatencyMillis(20).inputTokens(7).outputTokens(16).status(status).httpStatus(200)
                .build();
    }

    @Test
    void firstBypassIsTheEarlierOfExclusionAndADispatchBypass() {
        List<FailoverAnalysis.ExplainSample> explains = List.of(
                new FailoverAnalysis.ExplainSample(T0 - 100, true, null),
                new FailoverAnalysis.ExplainSample(T0 + 100, true, null),
                new FailoverAnalysis.ExplainSample(T0 + 600, false, "UNAVAILABLE"),
                new FailoverAnalysis.ExplainSample(T0 + 10_500, true, null));
        List<RoutingDecision> decisions = List.of(
                decision(T0 - 50, List.of(NODE), NODE, DecisionStatus.OK),
                decision(T0 + 200, List.of(NODE, OTHER), OTHER, DecisionStatus.OK),
                decision(T0 + 300, List.of(NODE), NODE, DecisionStatus.EXPLAINED));
        List<FailoverAnalysis.ClientRecord> clients = new ArrayList<>();
        clients.add(new FailoverAnalysis.ClientRecord(T0 - 500, T0 - 490, 200, NODE));
        clients.add(new FailoverAnalysis.ClientRecord(T0 + 50, T0 + 80, 200, NODE));
        clients.add(new FailoverAnalysis.ClientRecord(T0 + 100, T0 + 400, 200, OTHER));
        clients.add(new FailoverAnalysis.ClientRecord(T0 + 150, T0 + 160, 503, null));
        clients.add(new FailoverAnalysis.ClientRecord(T0 + 20_000, T0 + 20_010, 500, null)); // after the window

        FailoverAnalysis.Result r = FailoverAnalysis.analyse("crash", NODE, T0, 10_000, T0 + 15_000, explains,
                decisions, clients);

        assertThat(r.excludedAfterMs()).isEqualTo(600L);
        assertThat(r.excludedBecause()).isEqualTo("UNAVAILABLE");
        assertThat(r.dispatchBypassAfterMs()).isEqualTo(200L);
        assertThat(r.firstBypassAfterMs()).isEqualTo(200L);
        assertThat(r.servedByNodeDuringFault()).isEqualTo(1);
        assertThat(r.lastServedByNodeAfterMs()).isEqualTo(50L);
        assertThat(r.requestsInWindow()).isEqualTo(3);
        assertThat(r.clientErrorsInWindow()).isEqualTo(1);
        assertThat(r.errorStatuses()).isEqualTo("HTTP 503 × 1");
        assertThat(r.eligibleAgainAfterEndMs()).isEqualTo(500L);
        assertThat(r.p99InWindowMs()).isEqualTo(300.0);
        assertThat(r.p99BeforeMs()).isEqualTo(10.0);
        assertThat(FailoverAnalysis.table(List.of(r))).contains("| `crash` | opus-a100-80g-0 | 600 ms (UNAVAILABLE) | "
                + "200 ms | **200 ms** |").contains("| **1** |");
    }

    @Test
    void aFaultTheRouterNeverReactsToIsReportedAsNotObserved() {
        FailoverAnalysis.Result r = FailoverAnalysis.analyse("sm_saturation", NODE, T0, 5_000, T0 + 6_000,
                List.of(new FailoverAnalysis.ExplainSample(T0 + 10, true, null)),
                List.of(decision(T0 + 20, List.of(NODE), NODE, DecisionStatus.OK)),
                List.of(new FailoverAnalysis.ClientRecord(T0 + 20, T0 + 40, 200, NODE)));
        assertThat(r.firstBypassAfterMs()).isNull();
        assertThat(r.excludedAfterMs()).isNull();
        assertThat(r.clientErrorsInWindow()).isZero();
        assertThat(FailoverAnalysis.table(List.of(r))).contains("**not observed**");
    }

    @Test
    void percentileIsNearestRank() {
        assertThat(FailoverAnalysis.percentileOf(new double[] {5, 1, 4, 2, 3}, 50)).isEqualTo(3.0);
        assertThat(FailoverAnalysis.percentileOf(new double[] {5, 1, 4, 2, 3}, 99)).isEqualTo(5.0);
        assertThat(FailoverAnalysis.percentileOf(new double[0], 99)).isNaN();
    }
}
