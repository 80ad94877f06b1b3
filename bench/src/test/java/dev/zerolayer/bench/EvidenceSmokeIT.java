package dev.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.bench.failover.FailoverAnalysis;
import dev.zerolayer.bench.failover.FailoverRun;
import dev.zerolayer.bench.proxy.NginxPeer;
import dev.zerolayer.bench.proxy.OpenLoopLoad;
import dev.zerolayer.bench.proxy.Peer;
import dev.zerolayer.bench.proxy.PortkeyPeer;
import dev.zerolayer.bench.proxy.GoalCheck;
import dev.zerolayer.bench.proxy.GoalCheckRun;
import dev.zerolayer.bench.proxy.ProxyOverheadRun;
import dev.zerolayer.bench.proxy.ProxyReport;
import dev.zerolayer.bench.proxy.SvgCheck;
import dev.zerolayer.bench.stack.StackProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny version of each issue #10 run against one real stack (broker, telemetry, router, simulator with latency
 * off; the local-stack and service jars must be built, as in {@code ./mvnw verify}): the proxy-overhead ladder direct
 * vs router (plus nginx and Portkey when installed), its plots, and a live crash failover. The trace replay's tiny
 * version is {@code TraceReplaySmokeTest}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EvidenceSmokeIT {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static StackProcess stack;

    @BeforeAll
    static void startStack() throws Exception {
        for (String module : List.of("router-service", "telemetry-service", "node-simulator", "local-stack")) {
            Path jar = ROOT.resolve(module + "/target/" + module + ".jar");
            assumeTrue(Files.isRegularFile(jar), () -> "missing " + jar + "; build first: ./mvnw -B -q install "
                    + "-DskipTests");
        }
        stack = StackProcess.start(ROOT, freePort(), freePortPair(),
                "cache-service,complexity-service,fallback-service,console-service",
                Map.of("SPRING_APPLICATION_JSON", "{\"zerolayer\":{\"simulator\":{\"latency\":false},\"router\":"
                        + "{\"requests-per-second\":1000000}}}"));
        stack.awaitServes("/v1/messages", FailoverRun.BODY_FOR_TESTS, Map.of("anthropic-routing-priority", "opus"),
                Duration.ofSeconds(90));
    }

    @AfterAll
    static void stopStack() throws InterruptedException {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void tinyProxyOverheadLadderDirectVersusRouterWithPlots(@TempDir Path plots) throws Exception {
        List<OpenLoopLoad.Target> targets = new ArrayList<>(List.of(
                ProxyOverheadRun.targetFor("direct", "http://127.0.0.1:18100/v1/messages"),
                ProxyOverheadRun.targetFor("zerolayer", stack.router() + "/v1/messages")));
        OpenLoopLoad load = new OpenLoopLoad(64);
        // both rates fixed: every target is measured at each, whatever the (shared, busy) machine does to p99
        List<OpenLoopLoad.Result> results = ProxyOverheadRun.run(load, targets, new ProxyOverheadRun.Plan(
                List.of(20, 50), List.of(20, 50), Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ZERO));
        ProxyReport report = new ProxyReport(results);
        assertThat(results).hasSize(8);
        for (OpenLoopLoad.Result r : results) {
            assertThat(r.failed()).as("%s %d %s", r.target(), r.rate(), r.streaming()).isZero();
            assertThat(r.ok()).isEqualTo(r.sent());
        }
        assertThat(report.added(report.find("zerolayer", 50, false).orElseThrow(), 50)).isFinite();
        assertThat(report.ladder()).contains("| zerolayer |");
        assertThat(report.goalTable()).contains("router p99 added at 1,000 req/s, non-stream");
        for (Path svg : report.writePlots(plots).values()) {
            assertThat(SvgCheck.parse(svg).getDocumentElement().getTagName()).isEqualTo("svg");
        }
    }

    @Test
    @Order(1)
    void tinyGoalCheckPairsEveryRepetitionAndPoolsBothModes() throws Exception {
        GoalCheck check = GoalCheckRun.measure(new OpenLoopLoad(64), ProxyOverheadRun.targetFor("direct",
                "http://127.0.0.1:18100/v1/messages"), ProxyOverheadRun.targetFor("zerolayer", stack.router()
                        + "/v1/messages"), 20, 2, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO, 10);
        assertThat(check.pairs()).hasSize(4);
        for (boolean streaming : List.of(false, true)) {
            GoalCheck.Pooled pooled = check.pooled(streaming);
            assertThat(pooled.repetitions()).isEqualTo(2);
            assertThat(pooled.router().getTotalCount()).isEqualTo(40);
            assertThat(pooled.direct().getTotalCount()).isEqualTo(40);
            assertThat(pooled.failed()).isZero();
        }
        assertThat(check.markdown()).contains("| 2 | stream (TTFB) |").contains("pooled p99 added");
    }

    @Test
    @Order(2)
    void nginxReachesTheNodeAndIsMeasured() throws Exception {
        assumeTrue(NginxPeer.binary().isPresent(), "nginx not installed (scripts/bench-report installs it)");
        try (Peer nginx = NginxPeer.start(freePort(), "127.0.0.1:18100", false)) {
            measurePeer(nginx);
        }
    }

    @Test
    @Order(3)
    void portkeyReachesTheNodeAndIsMeasured() throws Exception {
        assumeTrue(PortkeyPeer.installed(PortkeyPeer.defaultCache()).isPresent(),
                "Portkey not installed in " + PortkeyPeer.defaultCache() + " (scripts/bench-report installs it)");
        try (Peer portkey = PortkeyPeer.start(freePort(), "http://127.0.0.1:18100", PortkeyPeer.defaultCache(),
                false)) {
            measurePeer(portkey);
        }
    }

    private static void measurePeer(Peer peer) throws Exception {
        ProxyOverheadRun.verifyReachesNodeForTests(peer, "http://127.0.0.1:18100");
        List<OpenLoopLoad.Result> results = ProxyOverheadRun.run(new OpenLoopLoad(64), List.of(
                ProxyOverheadRun.targetFor("direct", "http://127.0.0.1:18100/v1/messages"),
                new OpenLoopLoad.Target(peer.name(), peer.messagesUrl(), peer.headers(), "", false)),
                new ProxyOverheadRun.Plan(List.of(20), List.of(20), Duration.ofMillis(500),
                        Duration.ofSeconds(2), Duration.ZERO));
        ProxyReport report = new ProxyReport(results);
        assertThat(report.find(peer.name(), 20, false)).hasValueSatisfying(r -> assertThat(r.ok()).isEqualTo(40));
        assertThat(report.find(peer.name(), 20, true)).hasValueSatisfying(r -> assertThat(r.ok()).isEqualTo(40));
    }

    @Test
    @Order(4)
    void tinyLiveFailoverSeesTheRouterBypassACrashedNode() throws Exception {
        FailoverRun.Settings settings = new FailoverRun.Settings(stack.router(), "http://127.0.0.1:18085",
                stack.kafka(), StackProcess.ADMIN_TOKEN, "opus", "opus-a100-80g-0", 10, Duration.ofSeconds(2),
                Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofMillis(50), Duration.ofSeconds(1));
        List<FailoverAnalysis.Result> results = FailoverRun.run(settings, List.of("crash"));
        FailoverAnalysis.Result crash = results.get(0);
        assertThat(crash.requestsInWindow()).isPositive();
        assertThat(crash.firstBypassAfterMs()).as("the router bypassed the crashed node: %s", crash).isNotNull()
                .isLessThan(4_000L);
        assertThat(crash.decisionsSeen()).as("decision events read from the topic").isPositive();
        assertThat(FailoverAnalysis.table(results)).contains("| `crash` | opus-a100-80g-0 |");
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A port whose successor is free too (the broker's controller listens on port + 1). */
    static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            try (ServerSocket next = new ServerSocket(port + 1)) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port pair");
    }
}
