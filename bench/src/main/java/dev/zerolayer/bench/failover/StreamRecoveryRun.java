package dev.zerolayer.bench.failover;

import dev.zerolayer.bench.report.RunArguments;
import dev.zerolayer.bench.stack.Machine;
import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Broken answers in the running stack: a steady closed-loop load of streamed answers pinned to one tier (two nodes),
 * the node the router prefers faulted per scenario (a share of its streams cut or stalled mid-answer, the node crashed, or its first
 * token late), the tier's continuation and hedge policy set per scenario through fallback-service. Every streamed
 * answer is checked against the uninterrupted answer to the same prompt (every simulated node of a model answers a
 * prompt alike; every request's prompt is new, so prefix affinity never keeps it off a node, and its uninterrupted answer
 * is asked after the scenario, the fault gone): well-formed (one start, one stop, no error event), the same text token
 * for token, the same output tokens. Reports broken answers, the seam's added latency (from the decision events), time to first token and
 * hedges against requests.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.failover.StreamRecoveryRun --stack --out docs/bench/recovery.md
 * </pre>
 */
public final class StreamRecoveryRun {

    private static final String TIER = "opus";
    private static final String MODEL = "claude-opus-4-1";
    private static final Duration WARM_UP = Duration.ofSeconds(15);

    /**
     * One scenario: the fault on the node (null: none), its intensity, and the tier's policy during it (with
     * {@code ttftRouting} the scoring docs/policy.md shows for routing on predicted TTFT, else the policy's own).
     */
    record Scenario(String name, String fault, double intensity, long faultAtMs, boolean continuation,
            Long chunkGapMs, boolean hedge, Long hedgeDelayMs, double hedgeBudget, boolean ttftRouting) {

        Scenario(String name, String fault, double intensity, long faultAtMs, boolean continuation, Long chunkGapMs,
                boolean hedge, Long hedgeDelayMs, double hedgeBudget) {
            this(name, fault, intensity, faultAtMs, continuation, chunkGapMs, hedge, hedgeDelayMs, hedgeBudget, false);
        }
    }

    /** One streamed answer as the client saw it. */
    record Streamed(String prompt, String requestId, String route, int status, long ttftMs, long totalMs, String text,
            int outputTokens, String stop, int starts, int stops, int errors) {

        boolean wellFormed() {
            return status == 200 && starts == 1 && stops == 1 && errors == 0;
        }
    }

    /** The uninterrupted answer to a prompt. */
    record Reference(String text, int outputTokens, String stop) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String router;
    private final String simulator;
    private final String fallback;
    private final String adminToken;
    private final int workers;
    private final int maxTokens;
    private final Duration window;
    /** The policy's scoring before the run changed it. */
    private JsonNode ownScoring;

    StreamRecoveryRun(String router, String simulator, String fallback, String adminToken, int workers,
            int maxTokens, Duration window) {
        this.router = router;
        this.simulator = simulator;
        this.fallback = fallback;
        this.adminToken = adminToken;
        this.workers = workers;
        this.maxTokens = maxTokens;
        this.window = window;
    }

    public static void main(String[] args) throws Exception {
        RunArguments arguments = RunArguments.parse(args, Set.of("stack"));
        Map<String, String> o = arguments.options();
        int routerPort = Integer.parseInt(o.getOrDefault("router-port", "18480"));
        int kafkaPort = Integer.parseInt(o.getOrDefault("kafka-port", "19492"));
        StackProcess stack = null;
        try {
            if (arguments.has("stack")) {
                stack = StackProcess.start(Path.of(o.getOrDefault("root", ".")).toAbsolutePath(), routerPort,
                        kafkaPort, o.getOrDefault("skip", ""), Map.of());
            }
            String router = stack != null ? stack.router() : o.getOrDefault("router", "http://127.0.0.1:" + routerPort);
            String kafka = stack != null ? stack.kafka() : o.getOrDefault("kafka", "127.0.0.1:" + kafkaPort);
            StreamRecoveryRun run = new StreamRecoveryRun(router, o.getOrDefault("simulator", "http://127.0.0.1:18085"),
                    o.getOrDefault("fallback", "http://127.0.0.1:18084"),
                    o.getOrDefault("admin-token", StackProcess.ADMIN_TOKEN),
                    Integer.parseInt(o.getOrDefault("workers", "8")),
                    Integer.parseInt(o.getOrDefault("max-tokens", "100")),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("seconds", "40"))));
            List<Scenario> scenarios = List.of(
                    new Scenario("no fault", null, 0, 0, true, null, false, null, 5),
                    new Scenario("stream_cut 50 %, continuation off", "stream_cut", 0.5, 0, false, null, false, null,
                            5),
                    new Scenario("stream_cut 50 %, continuation on", "stream_cut", 0.5, 0, true, null, false, null, 5),
                    new Scenario("stream_stall 50 %, continuation on, chunk gap 1 s", "stream_stall", 0.5, 0, true,
                            1_000L, false, null, 5),
                    new Scenario("crash mid-load, continuation on", "crash", 1.0, 10_000, true, null, false, null, 5),
                    new Scenario("gateway_congestion (+270 ms first token), hedge off", "gateway_congestion", 1.0, 0,
                            true, null, false, null, 5),
                    new Scenario("gateway_congestion (+270 ms first token), hedge at 150 ms, 5 % budget",
                            "gateway_congestion", 1.0, 0, true, null, true, 150L, 5),
                    new Scenario("gateway_congestion (+270 ms first token), hedge at 150 ms, 60 % budget",
                            "gateway_congestion", 1.0, 0, true, null, true, 150L, 60),
                    new Scenario("gateway_congestion (+270 ms first token), hedge at the learned delay, 5 % budget",
                            "gateway_congestion", 1.0, 0, true, null, true, null, 5),
                    new Scenario("pcie_errors 10 % (3.5 % of first tokens +200–600 ms), hedge off", "pcie_errors",
                            0.1, 0, true, null, false, null, 5),
                    new Scenario("pcie_errors 10 % (3.5 % of first tokens +200–600 ms), hedge at the learned delay, "
                            + "5 % budget", "pcie_errors", 0.1, 0, true, null, true, null, 5),
                    new Scenario("ttft_spikes 3 % (first token +300–900 ms), hedge off", "ttft_spikes", 0.03, 0,
                            true, null, false, null, 5),
                    new Scenario("ttft_spikes 3 % (first token +300–900 ms), hedge at the learned delay, 5 % budget",
                            "ttft_spikes", 0.03, 0, true, null, true, null, 5),
                    new Scenario("ttft_spikes 3 % (first token +300–900 ms), hedge at the learned delay, 10 % budget",
                            "ttft_spikes", 0.03, 0, true, null, true, null, 10),
                    new Scenario("gateway_congestion (+270 ms first token), routing on predicted TTFT, hedge off",
                            "gateway_congestion", 1.0, 0, true, null, false, null, 5, true),
                    new Scenario("gateway_congestion (+270 ms first token), routing on predicted TTFT, hedge at the "
                            + "learned delay, 5 % budget", "gateway_congestion", 1.0, 0, true, null, true, null, 5,
                            true));
            String only = o.getOrDefault("only", "");
            if (!only.isEmpty()) {
                // scenarios whose name contains one of the comma-separated parts
                List<String> parts = List.of(only.split(","));
                scenarios = scenarios.stream().filter(sc -> parts.stream().anyMatch(sc.name()::contains)).toList();
            }
            String md = run.run(kafka, scenarios, "StreamRecoveryRun " + String.join(" ", args));
            System.out.println(md);
            arguments.writeOut(md);
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    String run(String kafka, List<Scenario> scenarios, String command) throws Exception {
        StringBuilder md = new StringBuilder();
        md.append("Command: `java -cp bench/target/benchmarks.jar dev.zerolayer.bench.failover.").append(command)
                .append("`  \nMachine: ").append(Machine.describe()).append("  \nLoad: ").append(workers)
                .append(" closed-loop clients streaming answers of up to ").append(maxTokens).append(" tokens pinned to ")
                .append(TIER).append(" (2 nodes), ").append(window.toSeconds()).append(" s per scenario after ")
                .append(WARM_UP.toSeconds()).append(" s unmeasured; each fault on the node the router preferred when it ")
                .append("was injected (the column \"faulted node\").\n\n");
        md.append("| scenario | faulted node | streams | began on the faulted node | served by another tier | broken (error event, "
                + "no end, or text ≠ the uninterrupted answer) | of which text ≠ | continued | closed | not continued | "
                + "seam added p50 / p99 ms | TTFT p50 / p99 ms | hedges won / lost (share of requests) |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        try (DecisionTap tap = new DecisionTap(kafka)) {
            FailoverRun.awaitTrue(tap::ready, Duration.ofSeconds(60), "the decision tap did not get its partitions");
            // nodes warm (first requests pay the cold start), not counted
            load(new Scenario("warm-up", null, 0, 0, true, null, false, null, 5), -1, WARM_UP);
            for (int n = 0; n < scenarios.size(); n++) {
                Scenario scenario = scenarios.get(n);
                policy(scenario);
                Load load = load(scenario, n, window);
                List<Streamed> streamed = load.streamed();
                // every node of the tier answers a prompt alike: the uninterrupted answers, asked with the fault gone
                Map<String, Reference> references = references(streamed.stream()
                        .filter(s -> s.route().startsWith(TIER + "/")).map(Streamed::prompt).toList());
                Thread.sleep(1_500); // the last decision events reach the tap
                Map<String, RoutingDecision> decisions = new ConcurrentHashMap<>();
                tap.decisions().forEach(d -> decisions.put(d.requestId(), d));
                md.append(row(scenario, load.node(), streamed, references, decisions)).append('\n');
                System.err.println("recovery: " + scenario.name() + " done");
            }
            policy(new Scenario("restore", null, 0, 0, true, null, false, null, 5));
        }
        return md.toString();
    }

    private Map<String, Reference> references(List<String> prompts) throws Exception {
        Map<String, Reference> out = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (String prompt : prompts) {
                done.add(pool.submit(() -> {
                    // the tier's own answer: at start-up a cold tier may still be bypassed to another model's
                    HttpResponse<String> response = null;
                    for (int attempt = 0; attempt < 30; attempt++) {
                        response = http.send(request(prompt, false).build(), HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() == 200 && response.headers().firstValue("x-anthropic-route")
                                .orElse("").startsWith(TIER + "/")) {
                            break;
                        }
                        Thread.sleep(1_000); // pacing retries while the tier warms up
                    }
                    JsonNode message = EventCodec.mapper().readTree(response.body());
                    if (response.statusCode() != 200 || !response.headers().firstValue("x-anthropic-route")
                            .orElse("").startsWith(TIER + "/")) {
                        throw new IllegalStateException("reference answer: " + response.statusCode() + " "
                                + response.headers().firstValue("x-anthropic-route").orElse("no route"));
                    }
                    out.put(prompt, new Reference(message.path("content").path(0).path("text").asString(""),
                            message.path("usage").path("output_tokens").asInt(), message.path("stop_reason")
                                    .asString("")));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return out;
    }

    private HttpRequest.Builder request(String prompt, boolean stream) {
        String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":" + EventCodec.mapper().writeValueAsString(prompt)
                + "}]}";
        return HttpRequest.newBuilder(URI.create(router + "/v1/messages")).timeout(Duration.ofSeconds(120))
                .header("content-type", "application/json").header("x-api-key", StackProcess.API_KEY)
                .header("anthropic-routing-priority", TIER).header("anthropic-debug", "route")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** The tier's continuation and hedge as the scenario wants them, applied and seen by the router. */
    private void policy(Scenario scenario) throws Exception {
        HttpResponse<String> current = http.send(HttpRequest.newBuilder(URI.create(fallback + "/v1/policy"))
                .header("accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        ObjectNode document = (ObjectNode) EventCodec.mapper().readTree(current.body());
        if (ownScoring == null) {
            ownScoring = document.path("scoring").deepCopy();
        }
        if (scenario.ttftRouting()) {
            ObjectNode scoring = ownScoring instanceof ObjectNode own ? own.deepCopy()
                    : EventCodec.mapper().createObjectNode();
            scoring.putObject("weights").put("predicted_ttft", 1.0).put("prefix_share", 0.10).put("health", 0.10);
            scoring.putObject("ttftSloMs").put("haiku", 1000).put("sonnet", 1500).put("opus", 2500);
            document.set("scoring", scoring);
        } else if (ownScoring instanceof ObjectNode own) {
            document.set("scoring", own.deepCopy());
        }
        ObjectNode limits = (ObjectNode) document.path("limits").path(TIER);
        ObjectNode continuation = limits.putObject("continuation");
        continuation.put("enabled", scenario.continuation());
        if (scenario.chunkGapMs() != null) {
            continuation.put("chunkGapMs", scenario.chunkGapMs());
        }
        ObjectNode hedge = limits.putObject("hedge");
        hedge.put("enabled", scenario.hedge()).put("budgetPercent", scenario.hedgeBudget());
        if (scenario.hedgeDelayMs() != null) {
            hedge.put("delayMs", scenario.hedgeDelayMs());
        }
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(fallback + "/v1/policy"))
                .header("content-type", "application/json").header("authorization", "Bearer " + adminToken)
                .header("if-match", current.headers().firstValue("etag").orElse("*"))
                .PUT(HttpRequest.BodyPublishers.ofString(EventCodec.mapper().writeValueAsString(document))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() != 200) {
            throw new IllegalStateException("policy: " + put.statusCode() + " " + put.body());
        }
        FailoverRun.awaitTrue(() -> {
            try {
                HttpResponse<String> explain = http.send(HttpRequest.newBuilder(URI.create(router
                                + "/v1/route/explain")).header("content-type", "application/json")
                        .header("x-api-key", StackProcess.API_KEY).header("anthropic-routing-priority", TIER)
                        .POST(HttpRequest.BodyPublishers.ofString(FailoverRun.BODY)).build(),
                        HttpResponse.BodyHandlers.ofString());
                JsonNode recovery = EventCodec.mapper().readTree(explain.body()).path("recovery");
                return recovery.path("continuation").asBoolean() == scenario.continuation()
                        && recovery.path("hedge").asBoolean() == scenario.hedge()
                        && (scenario.chunkGapMs() == null || recovery.path("chunk_gap_ms").asLong()
                                == scenario.chunkGapMs());
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(30), "the router did not take the policy of " + scenario.name());
    }

    /**
     * A prompt no earlier request shares a prefix with (its distinct part first), so no node holds its KV blocks and
     * the ranking, not prefix affinity, places it.
     */
    private static String prompt(int scenario, int worker, int request) {
        return "#" + scenario + "." + worker + "." + request + " Recovery run: explain in detail how a circuit breaker "
                + "protects a fleet.";
    }

    /** What one scenario's load saw, and the node it faulted (without a fault: the node the router preferred). */
    record Load(List<Streamed> streamed, String node) {
    }

    private Load load(Scenario scenario, int scenarioIndex, Duration length) throws Exception {
        FailoverRun.Settings settings = new FailoverRun.Settings(router, simulator, null, adminToken, TIER, "", 1,
                Duration.ZERO, length, Duration.ZERO, Duration.ofMillis(100), Duration.ZERO);
        FailoverRun.awaitTierEligible(http, settings, Duration.ofSeconds(180));
        String node = preferred();
        List<Streamed> out = new CopyOnWriteArrayList<>();
        long end = System.nanoTime() + length.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                running.add(pool.submit(() -> {
                    int i = 0;
                    while (System.nanoTime() < end) {
                        out.add(stream(prompt(scenarioIndex, worker, i++)));
                    }
                    return null;
                }));
            }
            if (scenario.fault() != null) {
                Thread.sleep(scenario.faultAtMs()); // pacing the scenario, not synchronising on a result
                node = preferred();
                inject(scenario, node);
            }
            for (Future<?> f : running) {
                f.get(length.toSeconds() + 180, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            if (scenario.fault() != null) {
                http.send(FailoverRun.admin(settings, "/admin/nodes/" + node + "/faults").DELETE().build(),
                        HttpResponse.BodyHandlers.discarding());
            }
        }
        return new Load(out, node);
    }

    /** The node the router would send a new prompt of the tier to now. */
    private String preferred() throws Exception {
        HttpResponse<String> explain = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/route/explain"))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                .header("x-api-key", StackProcess.API_KEY).header("anthropic-routing-priority", TIER)
                .POST(HttpRequest.BodyPublishers.ofString(FailoverRun.BODY)).build(),
                HttpResponse.BodyHandlers.ofString());
        String node = EventCodec.mapper().readTree(explain.body()).path("node").asString("");
        if (explain.statusCode() != 200 || node.isEmpty()) {
            throw new IllegalStateException("explain named no node: " + explain.statusCode());
        }
        return node;
    }

    private void inject(Scenario scenario, String node) throws Exception {
        String body = String.format(Locale.ROOT, "{\"type\":\"%s\",\"durationMs\":%d,\"intensity\":%s}",
                scenario.fault(), window.toMillis() + 60_000, scenario.intensity());
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(simulator + "/admin/nodes/" + node
                        + "/faults")).timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .header("authorization", "Bearer " + adminToken).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("fault " + scenario.fault() + ": " + response.statusCode() + " "
                    + response.body());
        }
    }

    private Streamed stream(String prompt) {
        long start = System.nanoTime();
        long ttft = -1;
        StringBuilder text = new StringBuilder();
        int[] counts = new int[3];
        int outputTokens = 0;
        String stop = "";
        String requestId = "";
        String route = "";
        int status = 0;
        try {
            HttpResponse<InputStream> response = http.send(request(prompt, true).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            status = response.statusCode();
            requestId = response.headers().firstValue("request-id").orElse("");
            route = response.headers().firstValue("x-anthropic-route").orElse("");
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (!line.startsWith("data:")) {
                        continue;
                    }
                    JsonNode data = EventCodec.mapper().readTree(line.substring(5).trim());
                    switch (data.path("type").asString("")) {
                        case "message_start" -> counts[0]++;
                        case "message_stop" -> counts[1]++;
                        case "error" -> counts[2]++;
                        case "content_block_delta" -> {
                            if (ttft < 0) {
                                ttft = System.nanoTime() - start;
                            }
                            text.append(data.path("delta").path("text").asString(""));
                        }
                        case "message_delta" -> {
                            outputTokens = data.path("usage").path("output_tokens").asInt(outputTokens);
                            stop = data.path("delta").path("stop_reason").asString(stop);
                        }
                        default -> {
                        }
                    }
                }
            }
        } catch (Exception e) {
            counts[2]++;
        }
        return new Streamed(prompt, requestId, route, status, ttft < 0 ? -1 : ttft / 1_000_000,
                (System.nanoTime() - start) / 1_000_000, text.toString(), outputTokens, stop, counts[0], counts[1],
                counts[2]);
    }

    private String row(Scenario scenario, String node, List<Streamed> streamed, Map<String, Reference> references,
            Map<String, RoutingDecision> decisions) {
        int broken = 0;
        int wrongText = 0;
        int otherTier = 0;
        int onFaulted = 0;
        List<Long> ttfts = new ArrayList<>();
        List<Long> seams = new ArrayList<>();
        int[] kinds = new int[Recovery.Kind.values().length];
        for (Streamed s : streamed) {
            Reference reference = references.get(s.prompt());
            boolean sameText = reference != null && reference.text().equals(s.text())
                    && reference.outputTokens() == s.outputTokens() && reference.stop().equals(s.stop());
            boolean tier = s.route().startsWith(TIER + "/");
            if (!s.wellFormed()) {
                broken++;
            } else if (!tier) {
                // another tier's model answers otherwise: well-formed, but not comparable
                otherTier++;
            } else if (!sameText) {
                broken++;
                wrongText++;
            }
            if (s.ttftMs() >= 0) {
                ttfts.add(s.ttftMs());
            }
            RoutingDecision decision = decisions.get(s.requestId());
            if (decision != null) {
                onFaulted += !decision.nodesTried().isEmpty() && decision.nodesTried().get(0).equals(node) ? 1 : 0;
                for (Recovery r : decision.recoveries()) {
                    kinds[r.kind().ordinal()]++;
                    if (r.kind() == Recovery.Kind.CONTINUED) {
                        seams.add(r.addedMillis());
                    }
                }
            }
        }
        int hedges = kinds[Recovery.Kind.HEDGE_WON.ordinal()] + kinds[Recovery.Kind.HEDGE_LOST.ordinal()];
        return String.format(Locale.ROOT,
                "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %d / %d (%.1f %%) |",
                scenario.name(), scenario.fault() == null ? "– (preferred: " + node + ")" : node, streamed.size(),
                onFaulted, otherTier, broken, wrongText,
                kinds[Recovery.Kind.CONTINUED.ordinal()], kinds[Recovery.Kind.CLOSED.ordinal()],
                kinds[Recovery.Kind.NOT_CONTINUED.ordinal()], pair(seams), pair(ttfts),
                kinds[Recovery.Kind.HEDGE_WON.ordinal()], kinds[Recovery.Kind.HEDGE_LOST.ordinal()],
                streamed.isEmpty() ? 0.0 : 100.0 * hedges / streamed.size());
    }

    private static String pair(List<Long> values) {
        if (values.isEmpty()) {
            return "–";
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return percentile(sorted, 0.50) + " / " + percentile(sorted, 0.99);
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }
}
