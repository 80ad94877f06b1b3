package dev.zerolayer.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyReportTest {

    /** A result whose every request took {@code ms} milliseconds, with {@code slow} of them taking {@code slowMs}. */
    static OpenLoopLoad.Result result(String target, int rate, boolean streaming, double ms, int slow, double slowMs,
            long failed) {
        Histogram h = new Histogram(3);
        int n = 1000;
        for (int i = 0; i < n; i++) {
            h.recordValue(Math.round((i < slow ? slowMs : ms) * 1000));
        }
        return new OpenLoopLoad.Result(target, rate, streaming, h, n + failed, n, failed, 0);
    }

    static List<OpenLoopLoad.Result> ladder() {
        List<OpenLoopLoad.Result> r = new ArrayList<>();
        for (boolean s : List.of(false, true)) {
            r.add(result("direct", 200, s, 0.5, 0, 0, 0));
            r.add(result("zerolayer", 200, s, 1.5, 20, 2.0, 0));
            r.add(result("nginx", 200, s, 0.6, 20, 1.0, 0));
            r.add(result("portkey", 200, s, 3.0, 20, 8.0, 0));
            r.add(result("direct", 1000, s, 0.5, 0, 0, 0));
            r.add(result("zerolayer", 1000, s, 1.5, 20, 8.0, 0));   // p99 8 ms: added 7.5 ms
            r.add(result("nginx", 1000, s, 0.6, 20, 1.5, 0));       // added 1.0 ms
            r.add(result("portkey", 1000, s, 60, 20, 80, 0));      // p99 80 ms: not sustained, leaves the ladder
            r.add(result("direct", 2000, s, 0.5, 0, 0, 0));
            r.add(result("zerolayer", 2000, s, 1.5, 20, 70, 0));   // not sustained
            r.add(result("nginx", 2000, s, 0.6, 20, 1.5, 5));      // 5 of 1005 failed: more than 0.1 %
        }
        return r;
    }

    @Test
    void addedLatencyIsThePercentileMinusDirectsAtTheSameRateAndMode() {
        ProxyReport report = new ProxyReport(ladder());
        OpenLoopLoad.Result zr = report.find("zerolayer", 1000, false).orElseThrow();
        assertThat(report.added(zr, 99)).isCloseTo(7.5, within(0.02));
        assertThat(report.added(zr, 50)).isCloseTo(1.0, within(0.02));
        assertThat(report.targets()).containsExactly("direct", "zerolayer", "nginx", "portkey");
        assertThat(report.rates()).containsExactly(200, 1000, 2000);
    }

    @Test
    void theLadderStopsAtTheFirstRateNotSustained() {
        ProxyReport report = new ProxyReport(ladder());
        assertThat(report.highestSustained("zerolayer", false)).isEqualTo(1000);
        assertThat(report.highestSustained("portkey", true)).isEqualTo(200);
        assertThat(report.highestSustained("nginx", false)).as("failures above 0.1 % are not sustained")
                .isEqualTo(1000);
        assertThat(report.highestSustained("direct", false)).isEqualTo(2000);
        assertThat(report.ladderCapped("direct", false)).isFalse();
        assertThat(report.ladder()).contains("| portkey | 200 req/s | 200 req/s |")
                .contains("2,000 req/s (the ladder's top; not reached)");
    }

    @Test
    void goalsStateTheMeasuredRatioAndByHowMuchTheyAreMissed() {
        List<ProxyReport.Goal> goals = new ProxyReport(ladder()).goals();
        assertThat(goals).hasSize(6);
        ProxyReport.Goal absolute = goals.get(0);
        assertThat(absolute.measured()).isEqualTo("7.50 ms");
        assertThat(absolute.verdict()).isEqualTo("**missed** by 5.50 ms (3.8×)");
        ProxyReport.Goal nginx = goals.get(1);
        assertThat(nginx.measured()).startsWith("7.5× (7.50 ms / 1.00 ms");
        assertThat(nginx.verdict()).startsWith("**missed** by 3.8×");
        ProxyReport.Goal portkey = goals.get(2);
        assertThat(portkey.measured()).contains("200: 0.25×").contains("1000: 0.10×");
        assertThat(portkey.verdict()).isEqualTo("met");
    }

    @Test
    void aRouterSlowerThanPortkeyAtOneRateMissesThatGoal() {
        List<OpenLoopLoad.Result> r = new ArrayList<>(List.of(result("direct", 200, false, 0.5, 0, 0, 0),
                result("zerolayer", 200, false, 5, 20, 12, 0), result("portkey", 200, false, 3, 20, 9, 0)));
        ProxyReport.Goal portkey = new ProxyReport(r).goals().get(2);
        assertThat(portkey.verdict()).startsWith("**missed** at 200 req/s (12.0").contains(" vs 9.0");
    }

    @Test
    void writesCsvAndWellFormedPlotsForEveryRateAndMode(@TempDir Path dir) throws Exception {
        Map<String, Path> written = new ProxyReport(ladder()).writePlots(dir);
        assertThat(written).containsKeys("cdf-nonstream-1000", "cdf-stream-1000", "tail-stream-200",
                "ladder-nonstream", "ladder-stream");
        for (Path svg : written.values()) {
            assertThat(SvgCheck.parse(svg).getDocumentElement().getTagName()).isEqualTo("svg");
        }
        String cdf = Files.readString(dir.resolve("cdf-nonstream-1000.svg"));
        assertThat(cdf).contains(">zerolayer<").contains(">nginx<").contains(">portkey<").contains("<path d=\"M");
        assertThat(Files.readString(dir.resolve("ladder-stream.svg"))).contains("stroke-dasharray");
        assertThat(dir.resolve("results.csv")).content().startsWith("rate,mode,target,")
                .contains("1000,non-stream,zerolayer,1.50,1.50,8.00");
    }

    @Test
    void cdfPointsClimbToOne() {
        double[][] xy = ProxyReport.cdfPoints(result("direct", 1, false, 1.0, 10, 5.0, 0).latencyMicros());
        assertThat(xy[1][xy[1].length - 1]).isCloseTo(1.0, within(1e-9));
        for (int i = 1; i < xy[0].length; i++) {
            assertThat(xy[0][i]).isGreaterThanOrEqualTo(xy[0][i - 1]);
            assertThat(xy[1][i]).isGreaterThanOrEqualTo(xy[1][i - 1]);
        }
    }

    @Test
    void nginxConfigurationKeepsUpstreamConnectionsAndDoesNotBuffer(@TempDir Path dir) {
        String conf = NginxPeer.config(dir, 18490, "127.0.0.1:18100", 2);
        assertThat(conf).contains("worker_processes 2;").contains("listen 127.0.0.1:18490;")
                .contains("server 127.0.0.1:18100;").contains("keepalive 256;").contains("proxy_buffering off;")
                .contains("proxy_http_version 1.1;").contains("proxy_set_header Connection \"\";")
                .contains("access_log off;").contains("daemon off;");
    }
}
