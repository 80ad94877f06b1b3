package dev.zerolayer.bench.proxy;

import dev.zerolayer.bench.report.RunArguments;
import dev.zerolayer.bench.stack.Machine;
import dev.zerolayer.bench.stack.StackProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.HdrHistogram.Histogram;

/**
 * What a restarted router costs its first clients: the stack (broker, telemetry, the node simulator with its latency
 * model off) with a router this run starts itself; after a pre-warm, steady windows at {@code --rate} (alternating
 * whole and streamed) give the steady p99 added (router minus the direct call at the same percentile); then, for each
 * entry of {@code --restarts} ({@code on}: with the router's warm-up, {@code off}: without), the router is killed
 * (SIGKILL), started again and, as soon as its readiness answers 200, loaded at the same rate for {@code --after}
 * seconds: the p99 added in that first minute against the steady one, and the time to ready.
 * {@code --router-java} runs every router on another JDK's {@code java}, {@code --router-jar} runs another jar (an
 * extracted one), {@code --restart-jvm} adds JVM options to the restarted routers only (a recording, an AOT cache).
 * With {@code --balanced} it measures a router that rejoins its peers instead: the stack's two routers behind its
 * HAProxy ({@code ./zerolayer up --replicas 2 --slow-start S}, {@code --slow-start} passed on, the production
 * warm-up of 50,000 requests), the load through the balancer throughout; each of {@code --kills} (default 2) kills one
 * router in turn, which the launcher starts again: the p99 added from the kill until it is ready, and over the
 * {@code --after} seconds after.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.proxy.RestartRun --root . --rate 1000 \
 *     --prewarm 180 --restarts off,on,off,on --out docs/bench/restart.md
 * </pre>
 */
public final class RestartRun {

    /** The simulator's first node, called directly for the percentiles the router's are compared with. */
    private static final String DIRECT = "http://127.0.0.1:18100/v1/messages";
    /** The run's own calls to a router (readiness, health); one client for all of them. */
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RestartRun() {
    }

    /** One window of load: its mode and what it measured. */
    private record Window(String part, OpenLoopLoad.Result result) {
    }

    /** One restart: with or without warm-up, how long until ready, and its windows. */
    private record Restart(boolean warmUp, double readySeconds, String warmUpHealth, List<Window> windows) {
    }

    public static void main(String[] args) throws Exception {
        RunArguments arguments = RunArguments.parse(args, Set.of("balanced"));
        Map<String, String> options = arguments.options();
        Path root = Path.of(options.getOrDefault("root", ".")).toAbsolutePath();
        int routerPort = Integer.parseInt(options.getOrDefault("router-port", "18480"));
        int kafkaPort = Integer.parseInt(options.getOrDefault("kafka-port", "19492"));
        int rate = Integer.parseInt(options.getOrDefault("rate", String.valueOf(ProxyReport.GOAL_RATE)));
        Duration window = Duration.ofSeconds(Long.parseLong(options.getOrDefault("window", "10")));
        Duration steady = Duration.ofSeconds(Long.parseLong(options.getOrDefault("steady", "60")));
        Duration after = Duration.ofSeconds(Long.parseLong(options.getOrDefault("after", "60")));
        Duration prewarm = Duration.ofSeconds(Long.parseLong(options.getOrDefault("prewarm", "180")));
        int prewarmRate = Integer.parseInt(options.getOrDefault("prewarm-rate", "300"));
        List<Boolean> restarts = java.util.Arrays.stream(options.getOrDefault("restarts", "off,on").split(","))
                .map(r -> switch (r.trim()) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--restarts takes on and off, not " + r);
                }).toList();
        Path out = options.containsKey("out") ? Path.of(options.get("out")) : null;
        String java = options.getOrDefault("router-java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path jar = root.resolve(options.getOrDefault("router-jar", "router-service/target/router-service.jar"));
        List<String> restartJvm = options.containsKey("restart-jvm")
                ? List.of(options.get("restart-jvm").trim().split("\\s+")) : List.of();
        String router = "http://127.0.0.1:" + routerPort;
        if (arguments.has("balanced")) {
            balanced(args, root, routerPort, kafkaPort, rate, window, steady, after, prewarm, prewarmRate,
                    Integer.parseInt(options.getOrDefault("kills", "2")),
                    Integer.parseInt(options.getOrDefault("slow-start", "60")), out);
            return;
        }

        OpenLoopLoad load = new OpenLoopLoad(512);
        try (StackProcess stack = StackProcess.start(root, routerPort, kafkaPort,
                "router-service,cache-service,complexity-service,fallback-service,console-service",
                Map.of("SPRING_APPLICATION_JSON", "{\"zerolayer\":{\"simulator\":{\"latency\":false}}}"))) {
            OpenLoopLoad.Target routerTarget = ProxyOverheadRun.targetFor("zerolayer", router + "/v1/messages");
            OpenLoopLoad.Target directTarget = ProxyOverheadRun.targetFor("direct", DIRECT);
            PeerProcess process = startRouter(java, List.of(), jar, root, routerPort, stack.kafka(),
                    true);
            try {
                awaitReady(process, routerPort);
                // Given a router warmed by long traffic, and the direct call's own percentiles
                List<Window> directs = new ArrayList<>();
                List<Window> steadyWindows = steadyState(load, routerTarget, directTarget, prewarmRate, prewarm, rate,
                        window, steady, directs);

                // When it is killed and started again, with or without its warm-up, and loaded once ready
                List<Restart> done = new ArrayList<>();
                for (boolean warmUp : restarts) {
                    process.kill();
                    long killed = System.nanoTime();
                    process = startRouter(java, restartJvm, jar, root, routerPort, stack.kafka(), warmUp);
                    awaitReady(process, routerPort);
                    double ready = (System.nanoTime() - killed) / 1e9;
                    System.err.printf(Locale.ROOT, "restart: warm-up %s, ready %.1f s after the kill%n",
                            warmUp ? "on" : "off", ready);
                    List<Window> first = windows(load, routerTarget, rate, window, after,
                            "after restart (warm-up " + (warmUp ? "on" : "off") + ")");
                    done.add(new Restart(warmUp, ready, warmUpHealth(routerPort), first));
                }

                // Then the p99 added in the first minute against the steady state
                String md = report(args, rate, window, after, directs, steadyWindows, done);
                System.out.println(md);
                if (out != null) {
                    Files.createDirectories(out.toAbsolutePath().getParent());
                    Files.writeString(out, md);
                }
            } finally {
                process.close();
            }
        }
    }

    /** One kill of a balanced router: which, when it was ready again, and the windows before and after. */
    private record Rejoin(int replica, double readySeconds, List<Window> rejoining, List<Window> afterReady) {
    }

    /** The {@code --balanced} run: two routers behind the stack's HAProxy, one killed and restarted at a time. */
    private static void balanced(String[] args, Path root, int port, int kafkaPort, int rate, Duration window,
            Duration steady, Duration after, Duration prewarm, int prewarmRate, int kills, int slowStart, Path out)
            throws Exception {
        OpenLoopLoad load = new OpenLoopLoad(512);
        try (StackProcess stack = StackProcess.start(root, port, kafkaPort,
                "cache-service,complexity-service,fallback-service,console-service",
                Map.of("SPRING_APPLICATION_JSON", "{\"zerolayer\":{\"simulator\":{\"latency\":false}}}",
                        "ZEROLAYER_ROUTER_WARMUP_REQUESTS", "50000"),
                List.of("--replicas", "2", "--slow-start", String.valueOf(slowStart)))) {
            OpenLoopLoad.Target routerTarget = ProxyOverheadRun.targetFor("zerolayer", stack.router() + "/v1/messages");
            OpenLoopLoad.Target directTarget = ProxyOverheadRun.targetFor("direct", DIRECT);
            // Given both routers warmed by long traffic through the balancer, and the direct call's percentiles
            List<Window> directs = new ArrayList<>();
            List<Window> steadyWindows = steadyState(load, routerTarget, directTarget, prewarmRate, prewarm, rate,
                    window, steady, directs);

            // When one router is killed and the launcher starts it again, the load going on through the balancer
            List<Rejoin> done = new ArrayList<>();
            for (int k = 0; k < kills; k++) {
                int replica = 1 + k % 2;
                int replicaPort = 18090 + replica - 1;
                ProcessHandle process = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                        .map(c -> c.contains("--zerolayer.replica-id=router-service-" + replica))
                        .orElse(false)).findFirst().orElseThrow(() -> new IllegalStateException("no router "
                                + replica));
                long killed = System.nanoTime();
                process.destroyForcibly();
                process.onExit().get();
                // short windows until it is ready again (so the part after begins within one of them)
                List<Window> rejoining = new ArrayList<>();
                int i = 0;
                while (!ready(replicaPort) || System.nanoTime() - killed < Duration.ofSeconds(5).toNanos()) {
                    rejoining.add(new Window("rejoining", load.run(ProxyOverheadRun.withStreaming(routerTarget,
                            i++ % 2 == 1), rate, Duration.ofSeconds(2))));
                    if (System.nanoTime() - killed > Duration.ofMinutes(4).toNanos()) {
                        throw new IllegalStateException("router " + replica + " not ready 4 min after the kill");
                    }
                }
                double ready = (System.nanoTime() - killed) / 1e9;
                System.err.printf(Locale.ROOT, "restart: router %d ready %.1f s after the kill%n", replica, ready);
                done.add(new Rejoin(replica, ready, rejoining, windows(load, routerTarget, rate, window, after,
                        "after ready")));
            }
            String md = balancedReport(args, rate, window, after, slowStart, directs, steadyWindows, done);
            System.out.println(md);
            if (out != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.writeString(out, md);
            }
        }
    }

    /**
     * The pre-warm (whole and streamed, at {@code prewarmRate}), the direct call's windows at {@code rate} (added to
     * {@code directs}, whole then streamed) and the router's steady windows, which it returns.
     */
    private static List<Window> steadyState(OpenLoopLoad load, OpenLoopLoad.Target router, OpenLoopLoad.Target direct,
            int prewarmRate, Duration prewarm, int rate, Duration window, Duration steady, List<Window> directs)
            throws InterruptedException {
        for (boolean streaming : List.of(false, true)) {
            load.run(ProxyOverheadRun.withStreaming(direct, streaming), prewarmRate, Duration.ofSeconds(10));
            load.run(ProxyOverheadRun.withStreaming(router, streaming), prewarmRate, prewarm.dividedBy(2));
        }
        for (boolean streaming : List.of(false, true)) {
            load.run(ProxyOverheadRun.withStreaming(direct, streaming), rate, Duration.ofSeconds(5));
            directs.add(new Window("direct", load.run(ProxyOverheadRun.withStreaming(direct, streaming), rate,
                    steady.dividedBy(2))));
        }
        load.run(router, rate, Duration.ofSeconds(5)); // the rate's own warm-up, not measured
        return windows(load, router, rate, window, steady, "steady");
    }

    private static boolean ready(int port) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/actuator/health/readiness")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String balancedReport(String[] args, int rate, Duration window, Duration after, int slowStart,
            List<Window> directs, List<Window> steady, List<Rejoin> rejoins) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Generated by `RestartRun %s` on %s; the routers' JVM options `%s`.%n%n",
                String.join(" ", args), Machine.describe(), StackProcess.childJvmOptions()));
        md.append(String.format(Locale.ROOT, "Two routers behind the stack's HAProxy (slow start %d s), open load "
                + "at %d req/s through it. Steady: both routers after the pre-warm. Each kill: SIGKILL of one router, "
                + "which the launcher starts again (warm-up 50,000 requests); rejoining = from the kill until its "
                + "readiness answers 200 (2 s windows), after ready = the %d s after (%d s windows). Added = through "
                + "the balancer minus the direct call to the node at the same percentile, pooled per part and "
                + "mode.%n%n",
                slowStart, rate, after.toSeconds(), window.toSeconds()));
        table(md, directs, steady, (streaming, direct) -> {
            for (Rejoin r : rejoins) {
                String ready = String.format(Locale.ROOT, "%.1f", r.readySeconds());
                md.append(row("router " + r.replica() + " rejoining", ready, streaming, r.rejoining(), direct));
                md.append(row("router " + r.replica() + " after ready", ready, streaming, r.afterReady(), direct));
            }
        });
        md.append("\nPer window after ready (p99 ms; whole and streamed alternate):\n\n");
        for (Rejoin r : rejoins) {
            md.append("- router ").append(r.replica()).append(": ");
            md.append(p99s(r.afterReady())).append('\n');
        }
        return md.toString();
    }

    /** The router jar on this run's port and broker, with the stack's JVM options, {@code extra}, and the warm-up. */
    private static PeerProcess startRouter(String java, List<String> extra, Path jar, Path root, int port,
            String kafka, boolean warmUp) throws IOException {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(List.of(StackProcess.childJvmOptions().split("\\s+")));
        command.addAll(extra);
        command.addAll(List.of("-jar", jar.toString(),
                "--server.port=" + port, "--zerolayer.router.warm-up.enabled=" + warmUp,
                "--zerolayer.router.requests-per-second=1000000"));
        Path log = Files.createTempFile("zerolayer-restart-router", ".log");
        return PeerProcess.start("router-service", command, Map.of("KAFKA_BOOTSTRAP_SERVERS", kafka,
                "ZEROLAYER_API_KEYS", StackProcess.API_KEY), root, log);
    }

    private static void awaitReady(PeerProcess process, int port) throws Exception {
        process.awaitHttp("http://127.0.0.1:" + port + "/actuator/health/readiness", Duration.ofMinutes(3));
    }

    /** The router's warm-up health component as JSON (how long it took, how many calls). */
    private static String warmUpHealth(int port) {
        try {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/actuator/health")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            int at = body.indexOf("\"warmUp\"");
            return at < 0 ? "(none)" : body.substring(at, Math.min(body.length(), body.indexOf('}', at) + 2));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** Consecutive windows for {@code length}, alternating whole and streamed. */
    private static List<Window> windows(OpenLoopLoad load, OpenLoopLoad.Target target, int rate, Duration window,
            Duration length, String part) throws InterruptedException {
        List<Window> windows = new ArrayList<>();
        long count = Math.max(2, length.toSeconds() / window.toSeconds());
        for (int i = 0; i < count; i++) {
            OpenLoopLoad.Result r = load.run(ProxyOverheadRun.withStreaming(target, i % 2 == 1), rate, window);
            windows.add(new Window(part, r));
            System.err.printf(Locale.ROOT, "restart: %s window %d %-13s p99 %8.2f ms failed %d%n", part, i,
                    ProxyReport.mode(r.streaming()), ProxyReport.ms(r.latencyMicros(), 99), r.failed());
        }
        return windows;
    }

    private static String report(String[] args, int rate, Duration window, Duration after, List<Window> directs,
            List<Window> steady, List<Restart> restarts) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Generated by `RestartRun %s` on %s; the router's JVM options `%s`.%n%n",
                String.join(" ", args), Machine.describe(), StackProcess.childJvmOptions()));
        md.append(String.format(Locale.ROOT, "Open load at %d req/s in %d s windows alternating whole and streamed. "
                + "Steady: the router after its pre-warm. Each restart: SIGKILL, the same jar started again, loaded "
                + "from the moment its readiness answers 200 for %d s. Added = router minus the direct call to the "
                + "node at the same percentile, pooled over the part's windows of that mode.%n%n", rate,
                window.toSeconds(), after.toSeconds()));
        table(md, directs, steady, (streaming, direct) -> {
            for (Restart r : restarts) {
                md.append(row(r.windows().get(0).part(), String.format(Locale.ROOT, "%.1f", r.readySeconds()),
                        streaming, r.windows(), direct));
            }
        });
        md.append("\nPer window after each restart (p99 ms; whole and streamed alternate):\n\n");
        for (Restart r : restarts) {
            md.append("- warm-up ").append(r.warmUp() ? "on" : "off").append(": ");
            md.append(p99s(r.windows())).append("; warm-up health ").append(r.warmUpHealth()).append('\n');
        }
        return md.toString();
    }

    /**
     * The table's head, then per mode (whole, streamed) the direct and steady rows and what {@code parts} appends,
     * given the mode and the direct call's latencies.
     */
    private static void table(StringBuilder md, List<Window> directs, List<Window> steady,
            BiConsumer<Boolean, Histogram> parts) {
        md.append("| part | ready after kill s | mode | requests | failed | p50 ms | p99 ms | p99.9 ms | max ms | "
                + "**p99 added ms** |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (boolean streaming : List.of(false, true)) {
            Window directWindow = directs.get(streaming ? 1 : 0);
            Histogram direct = directWindow.result().latencyMicros();
            md.append(row("direct", "–", streaming, List.of(directWindow), null));
            md.append(row("steady", "–", streaming, steady, direct));
            parts.accept(streaming, direct);
        }
    }

    /** Each window's p99 in ms, streamed ones marked {@code (s)}. */
    private static String p99s(List<Window> windows) {
        return String.join(", ", windows.stream().map(w -> String.format(Locale.ROOT, "%.1f%s",
                ProxyReport.ms(w.result().latencyMicros(), 99), w.result().streaming() ? " (s)" : "")).toList());
    }

    private static String row(String part, String ready, boolean streaming, List<Window> windows, Histogram direct) {
        Histogram pooled = new Histogram(3);
        long failed = 0;
        for (Window w : windows) {
            if (w.result().streaming() == streaming) {
                pooled.add(w.result().latencyMicros());
                failed += w.result().failed();
            }
        }
        return String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %s |%n", part, ready,
                ProxyReport.mode(streaming), pooled.getTotalCount(), failed, ProxyReport.ms(pooled, 50),
                ProxyReport.ms(pooled, 99), ProxyReport.ms(pooled, 99.9), pooled.getMaxValue() / 1000.0,
                direct == null ? "–" : String.format(Locale.ROOT, "**%.2f**", ProxyReport.ms(pooled, 99)
                        - ProxyReport.ms(direct, 99)));
    }
}
