package dev.zerolayer.bench.proxy;

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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Added latency of proxies in front of one simulated node (latency model off): the node called directly, through
 * ZeroLayer's router, through nginx and through the Portkey gateway, at a ladder of open-loop rates, non-streaming
 * (whole body) and streaming (first byte), side by side in one run; a target leaves the ladder (per mode) at the first
 * rate it does not sustain (p99 ≥ 50 ms or more than 0.1 % failed).
 *
 * <pre>
 * ./mvnw -B -q install -DskipTests
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.proxy.ProxyOverheadRun --stack \
 *     --rates 200,500,1000,2000,3000 --duration 20 --out docs/bench/proxy-overhead.md --plots docs/bench/proxy
 * </pre>
 * With {@code --stack} it starts its own stack (broker, telemetry, router, simulator with latency off) and stops it
 * at the end; otherwise {@code --router} and {@code --direct} are used as given. {@code --peers nginx,portkey}
 * (default both; {@code none} for neither) are installed when missing (unless {@code --no-install}), started on
 * loopback, checked to reach the node, measured and stopped. Extra proxies: {@code --proxy name=url} (repeatable).
 */
public final class ProxyOverheadRun {

    static final String KEY = StackProcess.API_KEY;
    static final String BODY = "{\"model\":\"claude-opus-4-1\",\"max_tokens\":16,\"stream\":%s,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Reply with a short greeting.\"}]}";

    private ProxyOverheadRun() {
    }

    /**
     * What to run: the ladder's rates, the fixed rates every target is measured at whatever happened below them (the
     * goals' rates), and the lengths.
     */
    public record Plan(List<Integer> rates, List<Integer> fixedRates, Duration warmup, Duration length,
            Duration prewarm, int prewarmRate) {
        public Plan(List<Integer> rates, Duration warmup, Duration length, Duration prewarm) {
            this(rates, List.of(), warmup, length, prewarm);
        }

        public Plan(List<Integer> rates, List<Integer> fixedRates, Duration warmup, Duration length,
                Duration prewarm) {
            this(rates, fixedRates, warmup, length, prewarm, defaultPrewarmRate(rates));
        }

        /** Half the ladder's lowest rate, at least 50 req/s. */
        static int defaultPrewarmRate(List<Integer> rates) {
            return Math.max(50, rates.get(0) / 2);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> proxies = new LinkedHashMap<>();
        boolean startStack = false;
        boolean mayInstall = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--stack" -> startStack = true;
                case "--no-install" -> mayInstall = false;
                case "--proxy" -> {
                    String[] pair = args[++i].split("=", 2);
                    proxies.put(pair[0], pair[1]);
                }
                default -> {
                    if (!args[i].startsWith("--") || i + 1 >= args.length) {
                        throw new IllegalArgumentException("unknown argument " + args[i]);
                    }
                    options.put(args[i].substring(2), args[++i]);
                }
            }
        }
        int routerPort = Integer.parseInt(options.getOrDefault("router-port", "18480"));
        String router = options.getOrDefault("router", "http://127.0.0.1:" + routerPort);
        String direct = options.getOrDefault("direct", "http://127.0.0.1:18100");
        List<Integer> rates = new ArrayList<>();
        for (String rate : options.getOrDefault("rates", "200,500,1000,2000,3000").split(",")) {
            rates.add(Integer.parseInt(rate.trim()));
        }
        rates.sort(Integer::compare);
        List<Integer> fixed = new ArrayList<>();
        for (String rate : options.getOrDefault("fixed-rates", "200,1000").split(",")) {
            if (!rate.isBlank()) {
                fixed.add(Integer.parseInt(rate.trim()));
            }
        }
        java.util.TreeSet<Integer> all = new java.util.TreeSet<>(rates);
        all.addAll(fixed);
        rates = new ArrayList<>(all);
        Plan plan = new Plan(rates, fixed, Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup", "5"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("duration", "20"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("prewarm", "60"))),
                options.containsKey("prewarm-rate") ? Integer.parseInt(options.get("prewarm-rate"))
                        : Plan.defaultPrewarmRate(rates));
        Set<String> peers = new LinkedHashSet<>();
        for (String p : options.getOrDefault("peers", "nginx,portkey").split(",")) {
            if (!p.isBlank() && !p.equals("none")) {
                peers.add(p.trim());
            }
        }
        Path out = options.containsKey("out") ? Path.of(options.get("out")) : null;
        Path plots = options.containsKey("plots") ? Path.of(options.get("plots"))
                : out != null ? out.toAbsolutePath().getParent().resolve("proxy") : null;
        Path portkeyCache = options.containsKey("portkey-cache") ? Path.of(options.get("portkey-cache"))
                : PortkeyPeer.defaultCache();
        String command = "ProxyOverheadRun " + String.join(" ", args);

        List<AutoCloseable> started = new ArrayList<>();
        StackProcess stack = null;
        OpenLoopLoad load = new OpenLoopLoad(512);
        try {
            if (startStack) {
                stack = startStack(options, routerPort);
                started.add(stack);
            }
            List<OpenLoopLoad.Target> targets = new ArrayList<>();
            targets.add(target("direct", direct + "/v1/messages", headers("direct"), false));
            targets.add(target("zerolayer", router + "/v1/messages", headers("zerolayer"), false));
            List<String> peerLines = new ArrayList<>();
            URI node = URI.create(direct);
            for (String name : peers) {
                Peer peer = switch (name) {
                    case "nginx" -> NginxPeer.start(Integer.parseInt(options.getOrDefault("nginx-port", "18490")),
                            node.getHost() + ":" + node.getPort(), mayInstall);
                    case "portkey" -> PortkeyPeer.start(Integer.parseInt(options.getOrDefault("portkey-port",
                            "18491")), direct, portkeyCache, mayInstall);
                    default -> throw new IllegalArgumentException("--peers: unknown peer " + name
                            + " (nginx, portkey)");
                };
                started.add(peer);
                verifyReachesNode(peer.name(), peer.messagesUrl(), peer.headers(), direct);
                System.err.println(peer.name() + ": " + peer.describe() + "; a request through it reached the node");
                peerLines.add("- **" + peer.name() + "**: " + peer.describe());
                targets.add(target(peer.name(), peer.messagesUrl(), peer.headers(), false));
            }
            proxies.forEach((name, url) -> targets.add(target(name, url, headers(name), false)));
            List<OpenLoopLoad.Result> results = run(load, targets, plan);
            ProxyReport report = new ProxyReport(results);
            String markdown = markdown(report, plan, command, startStack ? StackProcess.childJvmOptions() : null,
                    peerLines, plots, out);
            System.out.println(markdown);
            if (out != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.writeString(out, markdown);
            }
            if (plots != null) {
                report.writePlots(plots);
            }
        } finally {
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (Exception e) {
                    System.err.println("stopping: " + e);
                }
            }
        }
    }

    /**
     * The measured stack: broker, telemetry, router and the node simulator with its latency model off (the router's
     * own rate limit out of the way), serving a pinned request before this returns.
     */
    static StackProcess startStack(Map<String, String> options, int routerPort) throws Exception {
        StackProcess stack = StackProcess.start(Path.of(options.getOrDefault("root", ".")).toAbsolutePath(),
                routerPort, Integer.parseInt(options.getOrDefault("kafka-port", "19492")),
                "cache-service,complexity-service,fallback-service,console-service", Map.of("SPRING_APPLICATION_JSON",
                        "{\"zerolayer\":{\"simulator\":{\"latency\":false},\"router\":{\"requests-per-second\":"
                                + "1000000}}}"));
        try {
            stack.awaitServes("/v1/messages", String.format(Locale.ROOT, BODY, false),
                    Map.of("anthropic-routing-priority", "opus"), Duration.ofSeconds(120));
        } catch (Exception e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    static OpenLoopLoad.Target target(String name, String url, Map<String, String> headers, boolean streaming) {
        return new OpenLoopLoad.Target(name, url, headers, String.format(Locale.ROOT, BODY, streaming), streaming);
    }

    /** A non-streaming target with the headers this run sends to a target of that name (the router: pinned). */
    public static OpenLoopLoad.Target targetFor(String name, String url) {
        return target(name, url, headers(name), false);
    }

    /** {@link #verifyReachesNode} for a started peer. */
    public static void verifyReachesNodeForTests(Peer peer, String nodeBase) throws IOException, InterruptedException {
        verifyReachesNode(peer.name(), peer.messagesUrl(), peer.headers(), nodeBase);
    }

    static Map<String, String> headers(String target) {
        return target.equals("zerolayer") ? Map.of("x-api-key", KEY, "anthropic-routing-priority", "opus")
                : Map.of("x-api-key", KEY, "anthropic-version", "2023-06-01");
    }

    /**
     * Pre-warms every target, then climbs the rate ladder: at each rate every target still in (per mode) gets a
     * warm-up and a measured run, interleaved so that drifting machine load hits all alike; a target that does not
     * sustain a rate leaves that mode's ladder. Direct calls always run while any other target does.
     */
    public static List<OpenLoopLoad.Result> run(OpenLoopLoad load, List<OpenLoopLoad.Target> targets, Plan plan)
            throws InterruptedException {
        if (!plan.prewarm().isZero()) {
            for (OpenLoopLoad.Target t : targets) {
                for (boolean streaming : List.of(false, true)) {
                    load.run(withStreaming(t, streaming), plan.prewarmRate(), plan.prewarm().dividedBy(2));
                }
            }
        }
        List<OpenLoopLoad.Result> results = new ArrayList<>();
        Map<Boolean, Set<String>> active = new LinkedHashMap<>();
        for (boolean streaming : List.of(false, true)) {
            Set<String> names = new LinkedHashSet<>();
            targets.forEach(t -> names.add(t.name()));
            active.put(streaming, names);
        }
        for (int rate : plan.rates()) {
            boolean fixed = plan.fixedRates().contains(rate);
            for (boolean streaming : List.of(false, true)) {
                Set<String> in = active.get(streaming);
                if (!fixed && in.stream().noneMatch(n -> !n.equals("direct"))) {
                    continue;
                }
                for (OpenLoopLoad.Target t : targets) {
                    if (!fixed && !in.contains(t.name())) {
                        continue;
                    }
                    OpenLoopLoad.Target target = withStreaming(t, streaming);
                    if (!plan.warmup().isZero()) {
                        load.run(target, rate, plan.warmup());
                    }
                    OpenLoopLoad.Result result = load.run(target, rate, plan.length());
                    results.add(result);
                    System.err.printf(Locale.ROOT, "%5d req/s %-13s %-10s p50 %7.2f p99 %8.2f p99.9 %8.2f ms  ok %d "
                            + "failed %d late %d%n", rate, ProxyReport.mode(streaming), t.name(),
                            ProxyReport.ms(result.latencyMicros(), 50), ProxyReport.ms(result.latencyMicros(), 99),
                            ProxyReport.ms(result.latencyMicros(), 99.9), result.ok(), result.failed(),
                            result.late());
                    if (!ProxyReport.sustains(result) && !t.name().equals("direct")) {
                        in.remove(t.name());
                    }
                }
            }
        }
        return results;
    }

    static OpenLoopLoad.Target withStreaming(OpenLoopLoad.Target t, boolean streaming) {
        return new OpenLoopLoad.Target(t.name(), t.url(), t.headers(), String.format(Locale.ROOT, BODY, streaming),
                streaming);
    }

    /**
     * Sends two non-streaming and one streaming request through a peer and checks each answers like the node does
     * and that the node's own success counter rose by at least three: the peer really reaches the node.
     */
    static void verifyReachesNode(String peer, String url, Map<String, String> headers, String nodeBase)
            throws IOException, InterruptedException {
        // HTTP/1.1 as the load generator speaks it (the JDK's default h2c upgrade headers would be forwarded)
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        double before = nodeSuccesses(http, nodeBase);
        for (boolean streaming : List.of(false, false, true)) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(String.format(Locale.ROOT, BODY, streaming)));
            headers.forEach(request::header);
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String expected = streaming ? "message_start" : "\"type\":\"message\"";
            if (response.statusCode() != 200 || !response.body().contains(expected)) {
                throw new PeerProcess.PeerException(peer, "a " + (streaming ? "streaming" : "non-streaming")
                        + " request through it answered " + response.statusCode() + ": "
                        + response.body().substring(0, Math.min(400, response.body().length())));
            }
        }
        double after = nodeSuccesses(http, nodeBase);
        if (after - before < 3) {
            throw new PeerProcess.PeerException(peer, "answered, but the node counted " + (after - before)
                    + " requests instead of 3: the peer does not reach the simulated node");
        }
    }

    /** Sum of the node's {@code vllm:request_success_total} series. */
    static double nodeSuccesses(HttpClient http, String nodeBase) throws IOException, InterruptedException {
        String page = http.send(HttpRequest.newBuilder(URI.create(nodeBase + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        double sum = 0;
        for (String line : page.split("\n")) {
            if (line.startsWith("vllm:request_success_total")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    static String markdown(ProxyReport report, Plan plan, String command, String stackJvmOptions, List<String> peers,
            Path plots, Path out) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Generated by `%s` on %s.%n%n", command, Machine.describe()));
        if (stackJvmOptions != null) {
            md.append(String.format(Locale.ROOT, "The stack's services (router, node simulator, telemetry) ran with "
                    + "the JVM options `%s` (`%s`).%n%n", stackJvmOptions, StackProcess.CHILD_JVM_OPTS));
        }
        md.append(String.format(Locale.ROOT, "Open-loop (`OpenLoopLoad`: one pacing thread and one NIO selector thread over keep-alive HTTP/1.1 "
                + "connections, about a fifth of a core at 1,000 streams/s; request i due at i/rate; latency from "
                + "the due time, so coordinated omission is corrected; HdrHistogram). %d s measured per cell after %d s "
                + "of warm-up at the same rate, every target pre-warmed %d s at %d req/s first (half non-streaming, half streaming: the JIT of a JVM target needs minutes on 2 cores); non-streaming = whole body, "
                + "streaming = first body byte. Added = the target's percentile minus the direct call's at the same "
                + "rate and mode. A target leaves a mode's ladder at the first rate where p99 ≥ 50 ms or more than "
                + "0.1 %% of requests failed; at the fixed rates (%s req/s) every target is measured regardless.%n%n", plan.length().toSeconds(), plan.warmup().toSeconds(),
                plan.prewarm().toSeconds(), plan.prewarmRate(), String.join(", ", plan.fixedRates().stream().map(String::valueOf).toList())));
        if (!peers.isEmpty()) {
            md.append("Peers, each checked to reach the node (its request counter) before measuring:\n\n");
            peers.forEach(p -> md.append(p).append('\n'));
            md.append('\n');
        }
        md.append("**Goals**\n\n").append(report.goalTable()).append('\n');
        md.append("**Highest rate sustained** (ladder: ").append(String.join(", ",
                report.rates().stream().map(String::valueOf).toList())).append(" req/s)\n\n")
                .append(report.ladder()).append('\n');
        md.append("**Every cell**\n\n").append(report.table()).append('\n');
        if (plots != null) {
            String rel = out == null ? plots.toString()
                    : out.toAbsolutePath().getParent().relativize(plots.toAbsolutePath()).toString();
            int rate = report.rates().contains(ProxyReport.GOAL_RATE) ? ProxyReport.GOAL_RATE : report.rates().get(0);
            md.append(String.format(Locale.ROOT, "![latency CDF, non-streaming, %d req/s](%s/cdf-nonstream-%d.svg)%n%n"
                    + "![latency CDF, streaming TTFB, %d req/s](%s/cdf-stream-%d.svg)%n%n"
                    + "![tail, non-streaming, %d req/s](%s/tail-nonstream-%d.svg)%n%n"
                    + "![tail, streaming, %d req/s](%s/tail-stream-%d.svg)%n%n"
                    + "![p99 by rate, non-streaming](%s/ladder-nonstream.svg)%n%n"
                    + "![p99 by rate, streaming](%s/ladder-stream.svg)%n%n"
                    + "CDF and tail plots for every rate: `%s/cdf-{nonstream,stream}-<rate>.svg`, "
                    + "`%s/tail-…`; all numbers: `%s/results.csv`.%n", rate, rel, rate, rate, rel, rate, rate, rel,
                    rate, rate, rel, rate, rel, rel, rel, rel, rel));
        }
        return md.toString();
    }
}
