package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny replay (one minute of the trace, one crash) through all four policies, end to end. */
class TraceReplaySmokeTest {

    static final String CRASHED = "opus-a100-80g-0";
    static final FaultScript CRASH = new FaultScript(List.of(
            new FaultScript.Fault(FaultScript.Type.CRASH, CRASHED, 15, 30)));
    /** Staleness limit (3 s) + tick (0.1 s) + longest propagation (0.25 s), rounded up. */
    static final double DETECTION_BOUND = 3.5;

    /** A stand-in for the real prompts' score distribution (the real one needs ../shared/data/prompts). */
    static final ComplexitySource SCORES = ComplexitySource.empirical(
            new double[] {0.05, 0.12, 0.2, 0.25, 0.33, 0.41, 0.48, 0.55, 0.62, 0.7, 0.81, 0.93}, "smoke");
    static final TraceReplay.Scenario DEFAULT_FLEET = TraceReplay.Scenario.of("overloaded", "default fleet",
            FleetSpec.simulatorDefault());

    static List<TraceRequest> rows;
    static TraceReplay.Report report;

    @BeforeAll
    static void run() throws Exception {
        rows = AzureTrace.load(fixture(), 0);
        report = replay(42);
    }

    static TraceReplay.Report replay(long seed) {
        return TraceReplay.run(rows, CRASH, seed, SCORES, DEFAULT_FLEET);
    }

    static Path fixture() throws URISyntaxException {
        return Path.of(TraceReplaySmokeTest.class.getResource("/replay/" + AzureTrace.CODE_FILE).toURI()).getParent();
    }

    @Test
    void everyRequestIsAccountedForUnderEveryPolicy() {
        assertThat(rows).hasSizeGreaterThan(300);
        assertThat(report.results()).extracting(Replay.Result::policy)
                .containsExactly("round-robin", "least-busy", "cache-aware", "predicted-latency", "zerolayer",
                        "zerolayer-ttft-no-downgrade", "zerolayer-ttft");
        assertThat(report.cacheCeiling()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
        for (Replay.Result result : report.results()) {
            boolean predicts = result.policy().equals("predicted-latency")
                    || result.policy().startsWith("zerolayer-ttft");
            assertThat(result.predictionError() != null).as(result.policy()).isEqualTo(predicts);
            if (predicts) {
                assertThat(result.predictionError().observations()).isPositive();
                assertThat(result.predictionError().p90Ms()).isGreaterThanOrEqualTo(result.predictionError().p50Ms())
                        .isFinite();
            }
        }
        for (Replay.Result result : report.results()) {
            assertThat(result.outcomes()).hasSize(report.requests()).doesNotContainNull();
            for (int i = 0; i < result.outcomes().size(); i++) {
                assertThat(result.outcomes().get(i).id()).isEqualTo(i);
            }
            Metrics.Summary s = report.summary(result.policy());
            assertThat(s.ok() + s.failed()).isEqualTo(report.requests());
            assertThat(s.ok()).as("most requests are served under %s", result.policy())
                    .isGreaterThan(report.requests() / 2);
        }
    }

    @Test
    void metricsAreInRange() {
        for (Metrics.Summary s : report.summaries()) {
            assertThat(s.ttftP50()).isPositive().isLessThanOrEqualTo(s.ttftP99());
            assertThat(s.ttftP99()).isLessThanOrEqualTo(s.ttftP999());
            assertThat(s.cacheHitRate()).isBetween(0.0, 1.0);
            assertThat(s.utilisation()).hasSize(8);
            for (double u : s.utilisation()) {
                assertThat(u).isBetween(0.0, 1.0);
            }
            assertThat(s.utilVariance()).isBetween(0.0, 0.25);
            assertThat(s.servedTierMix().values().stream().mapToDouble(Double::doubleValue).sum())
                    .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(s.costPer1000()).isPositive();
        }
        for (Replay.Result result : report.results()) {
            for (Outcome o : result.outcomes()) {
                if (o.gotFirstToken()) {
                    assertThat(o.ttft()).isPositive();
                    assertThat(o.cachedTokens()).isBetween(0, o.contextTokens());
                    assertThat(o.servedTier()).isIn("haiku", "sonnet", "opus");
                }
            }
        }
    }

    @Test
    void deterministicForTheSeed() {
        TraceReplay.Report again = replay(42);
        for (int p = 0; p < report.results().size(); p++) {
            assertThat(again.results().get(p).outcomes()).isEqualTo(report.results().get(p).outcomes());
            assertThat(again.results().get(p).attempts()).isEqualTo(report.results().get(p).attempts());
            assertThat(again.results().get(p).utilisation()).isEqualTo(report.results().get(p).utilisation());
            assertThat(again.results().get(p).retries()).isEqualTo(report.results().get(p).retries());
        }
        TraceReplay.Report otherSeed = replay(7);
        assertThat(otherSeed.result("zerolayer").outcomes()).isNotEqualTo(report.result("zerolayer").outcomes());
    }

    @Test
    void everyFailureBeforeTheFirstTokenIsRetriedOnceByTheClientAndCharged() {
        assertThat(report.scenario().templatesPerSource()).isEqualTo(Workload.templatesFor(FleetSpec.simulatorDefault()));
        int retriedSomewhere = 0;
        for (Replay.Result result : report.results()) {
            Metrics.Summary s = report.summary(result.policy());
            int retried = 0;
            for (Outcome first : result.outcomes()) {
                Outcome retry = result.retry(first.id());
                assertThat(retry != null).as("retried iff retryable: %s", first).isEqualTo(first.retryable());
                double client = Metrics.clientTtft(first, retry, policy());
                assertThat(client).isFinite().isPositive();
                if (retry != null) {
                    retried++;
                    assertThat(retry.arrival()).isCloseTo(first.end() + Replay.RETRY_BACKOFF,
                            org.assertj.core.data.Offset.offset(1e-9));
                    assertThat(client).isGreaterThan(retry.arrival() - first.arrival());
                } else {
                    assertThat(client).isEqualTo(first.ttft());
                }
            }
            assertThat(s.retried()).isEqualTo(retried);
            assertThat(s.clientTtftP99()).isFinite().isGreaterThanOrEqualTo(s.clientTtftP50());
            retriedSomewhere += retried;
        }
        assertThat(retriedSomewhere).as("the crash makes some policy fail and its clients retry").isPositive();
    }

    @Test
    void theSizingRuleGivesEveryTierAtLeastTwoNodesAtMostSixtyPercentLoaded() {
        FleetSizing.Sizing sizing = TraceReplay.sizing(rows, CRASH, 42, SCORES);
        for (FleetSizing.Tier tier : sizing.tiers()) {
            assertThat(tier.nodes()).isGreaterThanOrEqualTo(2);
            assertThat(tier.load()).isLessThanOrEqualTo(0.6);
            assertThat(sizing.fleet().primaryCount(tier.tier())).isEqualTo(tier.nodes());
        }
        List<TraceReplay.Scenario> scenarios = TraceReplay.scenarios(sizing);
        assertThat(scenarios).extracting(TraceReplay.Scenario::name).containsExactly("sized", "overloaded",
                "heterogeneous");
        FleetSpec mixed = scenarios.get(2).fleet();
        assertThat(mixed.primaryCount("sonnet")).isEqualTo(sizing.fleet().primaryCount("sonnet") + 1);
        assertThat(mixed.members()).filteredOn(m -> m.cluster().equals("sonnet-a100-40g"))
                .extracting(m -> m.profile().name()).contains("A100-40Gx4", "A10Gx4");
        assertThat(mixed.members()).extracting(FleetSpec.Member::id).doesNotHaveDuplicates();
        assertThat(scenarios.get(0).templatesPerSource()).isEqualTo(Workload.templatesFor(sizing.fleet()));
        for (FaultScript.Fault fault : FaultScript.standard().faults()) {
            if (fault.node() != null) {
                assertThat(sizing.fleet().members()).as("the standard faults' nodes exist in the sized fleet")
                        .anyMatch(m -> m.id().equals(fault.node()));
            }
        }
    }

    static dev.zerolayer.contracts.fallback.PolicyDocument policy() {
        return dev.zerolayer.contracts.fallback.PolicyDocument.defaults();
    }

    @Test
    void zeroLayerSendsNothingToTheCrashedNodeOnceDetected() {
        FaultScript.Fault crash = CRASH.faults().get(0);
        int crashed = report.result("zerolayer").nodeIds().indexOf(CRASHED);
        List<Replay.Attempt> afterDetection = report.result("zerolayer").attempts().stream()
                .filter(a -> a.node() == crashed && a.at() >= crash.start() + DETECTION_BOUND && a.at() < crash.end())
                .toList();
        assertThat(afterDetection).isEmpty();
        long zeroLayerBefore = report.result("zerolayer").attempts().stream()
                .filter(a -> a.node() == crashed && a.at() < crash.start()).count();
        assertThat(zeroLayerBefore).as("the node took traffic before its crash").isPositive();
        long roundRobinDuring = report.result("round-robin").attempts().stream()
                .filter(a -> a.node() == crashed && a.at() >= crash.start() && a.at() < crash.end()).count();
        assertThat(roundRobinDuring).as("round-robin keeps sending until the node is reported down").isPositive();
    }

    @Test
    void writesTheReportFiles(@TempDir Path out) throws Exception {
        TraceReplay.write(report, out, 10);
        assertThat(out.resolve("results.csv")).content().startsWith("scenario,policy,").contains("zerolayer");
        assertThat(out.resolve("results.json")).content().contains("\"goals\"").contains("\"crash\"");
        assertThat(out.resolve("timeline.csv")).content().contains("round-robin,0,");
        assertThat(out.resolve("ttft-p99-timeline.svg")).content().startsWith("<svg").contains("crash opus-a100-80g-0")
                .contains("<path d=\"M");
        assertThat(out.resolve("ttft-cdf.svg")).content().startsWith("<svg").endsWith("</svg>\n");
        // p50 (dashed) and p99 per policy over the timeline, fault window shaded; well-formed XML
        assertThat(out.resolve("ttft-percentiles-timeline.svg")).content().contains("zerolayer p50")
                .contains("zerolayer p99").contains("stroke-dasharray").contains("crash opus-a100-80g-0");
        assertThat(dev.zerolayer.bench.proxy.SvgCheck.parse(out.resolve("ttft-percentiles-timeline.svg"))
                .getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(out.resolve("timeline.csv")).content().startsWith("policy,window_start_s,served,failed,ttft_p50_s,"
                + "ttft_p99_s,client_ttft_p50_s,client_ttft_p90_s,client_ttft_p99_s\n");
        assertThat(TraceReplay.markdown(report)).contains("| zerolayer |").contains("p99 client TTFT zerolayer / round-robin")
                .contains("Scenario `overloaded`");
    }
}
