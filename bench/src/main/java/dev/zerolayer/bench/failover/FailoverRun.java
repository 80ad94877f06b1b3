package dev.zerolayer.bench.failover;

import dev.zerolayer.bench.report.RunArguments;
import dev.zerolayer.bench.stack.Machine;
import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.JsonNode;

/**
 * Live failover in the running stack: under steady non-streaming load pinned to one tier, each fault is injected on
 * one node through the simulator's admin API; the run records when the router's decision stops considering the node
 * ({@code /v1/route/explain}, polled), when a request first tried it and was served by another node
 * ({@code router.decisions.v1}), and every client-visible error, then clears the fault and waits for the node to be
 * eligible again before the next one.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.failover.FailoverRun --stack \
 *     --faults sm_saturation,crash,cuda_graph_warmup --out docs/bench/failover.md
 * </pre>
 * Without {@code --stack}: {@code --router}, {@code --simulator}, {@code --kafka}, {@code --admin-token}.
 */
public final class FailoverRun {

    static final String BODY = "{\"model\":\"claude-opus-4-1\",\"max_tokens\":16,\"stream\":false,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Reply with a short greeting.\"}]}";
    /** The request body every load and explain call sends (for tests that wait for the router to serve it). */
    public static final String BODY_FOR_TESTS = BODY;

    /** How to run: endpoints, the node and tier, the load and the fault timings. */
    public record Settings(String router, String simulator, String kafka, String adminToken, String tier, String node,
            int rate, Duration before, Duration fault, Duration after, Duration explainEvery, Duration warmup) {
    }

    private FailoverRun() {
    }

    public static void main(String[] args) throws Exception {
        RunArguments arguments = RunArguments.parse(args, Set.of("stack"));
        Map<String, String> o = arguments.options();
        boolean startStack = arguments.has("stack");
        List<String> faults = List.of(o.getOrDefault("faults", "sm_saturation,crash,cuda_graph_warmup").split(","));
        int routerPort = Integer.parseInt(o.getOrDefault("router-port", "18480"));
        int kafkaPort = Integer.parseInt(o.getOrDefault("kafka-port", "19492"));
        StackProcess stack = null;
        try {
            if (startStack) {
                // the stack as `./zerolayer up` runs it (latency model on), every service unless --skip says otherwise
                stack = StackProcess.start(Path.of(o.getOrDefault("root", ".")).toAbsolutePath(), routerPort,
                        kafkaPort, o.getOrDefault("skip", ""), Map.of());
            }
            Settings settings = new Settings(stack != null ? stack.router() : o.getOrDefault("router",
                    "http://127.0.0.1:" + routerPort), o.getOrDefault("simulator", "http://127.0.0.1:18085"),
                    stack != null ? stack.kafka() : o.getOrDefault("kafka", "127.0.0.1:" + kafkaPort),
                    o.getOrDefault("admin-token", StackProcess.ADMIN_TOKEN), o.getOrDefault("tier", "opus"),
                    o.getOrDefault("node", "opus-a100-80g-0"), Integer.parseInt(o.getOrDefault("rate", "20")),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("before", "5"))),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("fault-seconds", "20"))),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("after", "10"))), Duration.ofMillis(25),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("warmup", "30"))));
            List<FailoverAnalysis.Result> results = run(settings, faults);
            String md = markdown(results, settings, "FailoverRun " + String.join(" ", args));
            System.out.println(md);
            arguments.writeOut(md);
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    /** Runs every fault in turn on one tap and one load client. */
    public static List<FailoverAnalysis.Result> run(Settings s, List<String> faults) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<FailoverAnalysis.Result> results = new ArrayList<>();
        try (DecisionTap tap = new DecisionTap(s.kafka())) {
            awaitTrue(tap::ready, Duration.ofSeconds(60), "the decision tap did not get its partitions");
            // the same load, unrecorded, before the first fault: a cold stack (JIT, connection pools) would otherwise
            // charge its own start-up to whichever fault comes first
            if (!s.warmup().isZero()) {
                SteadyLoad warm = new SteadyLoad(s.router() + "/v1/messages", Map.of("x-api-key", StackProcess.API_KEY,
                        "anthropic-routing-priority", s.tier()), BODY);
                warm.run(s.rate(), s.warmup().toMillis(), new CopyOnWriteArrayList<>());
                warm.close();
            }
            for (String fault : faults) {
                awaitTierEligible(http, s, Duration.ofSeconds(180));
                results.add(runOne(http, tap, s, fault.trim()));
            }
        }
        return results;
    }

    static FailoverAnalysis.Result runOne(HttpClient http, DecisionTap tap, Settings s, String fault)
            throws Exception {
        List<FailoverAnalysis.ExplainSample> explains = new CopyOnWriteArrayList<>();
        List<FailoverAnalysis.ClientRecord> clients = new CopyOnWriteArrayList<>();
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller = new Thread(() -> {
            while (polling.get()) {
                long at = System.currentTimeMillis();
                try {
                    JsonNode candidate = candidate(http, s);
                    if (candidate != null) {
                        explains.add(new FailoverAnalysis.ExplainSample(at, candidate.path("eligible").asBoolean(),
                                candidate.path("excluded_because").isNull() ? null
                                        : candidate.path("excluded_because").asString()));
                    }
                } catch (Exception e) {
                    // a missed poll is a gap in the samples, not a result
                }
                LockSupport.parkNanos(s.explainEvery().toNanos());
            }
        }, "explain-poller");
        poller.setDaemon(true);
        long windowMillis = s.before().toMillis() + s.fault().toMillis() + s.after().toMillis();
        SteadyLoad load = new SteadyLoad(s.router() + "/v1/messages", Map.of("x-api-key", StackProcess.API_KEY,
                "anthropic-routing-priority", s.tier(), "anthropic-debug", "route"), BODY);
        long decisionsBefore = tap.decisions().size();
        poller.start();
        Thread loader = new Thread(() -> load.run(s.rate(), windowMillis, clients), "steady-load");
        loader.start();
        Thread.sleep(s.before().toMillis()); // steady load before the fault, as the run's timeline says
        long injectedAt = System.currentTimeMillis();
        inject(http, s, fault);
        System.err.printf(Locale.ROOT, "failover: %s injected on %s (%d ms after load start)%n", fault, s.node(),
                s.before().toMillis());
        loader.join(windowMillis + 90_000);
        long windowEnd = injectedAt + s.fault().toMillis() + s.after().toMillis();
        load.close();
        polling.set(false);
        poller.join(5_000);
        clear(http, s);
        Thread.sleep(1_000); // the last decision events reach the tap
        List<dev.zerolayer.contracts.router.RoutingDecision> decisions = tap.decisions();
        decisions = decisions.subList((int) Math.min(decisionsBefore, decisions.size()), decisions.size());
        FailoverAnalysis.Result result = FailoverAnalysis.analyse(fault, s.node(), injectedAt, s.fault().toMillis(),
                windowEnd, explains, decisions, clients);
        System.err.println("failover: " + result);
        return result;
    }

    /** The faulted node's candidate entry in an explain answer for the pinned tier, or null when absent. */
    static JsonNode candidate(HttpClient http, Settings s) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(s.router() + "/v1/route/explain"))
                .timeout(Duration.ofSeconds(5)).header("content-type", "application/json")
                .header("x-api-key", StackProcess.API_KEY).header("anthropic-routing-priority", s.tier())
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            return null;
        }
        for (JsonNode c : EventCodec.mapper().readTree(response.body()).path("candidates")) {
            if (s.node().equals(c.path("node").asString())) {
                return c;
            }
        }
        return null;
    }

    /** Waits until every node of the tier is an eligible candidate (after a previous fault, the node is back). */
    static void awaitTierEligible(HttpClient http, Settings s, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(s.router()
                            + "/v1/route/explain")).timeout(Duration.ofSeconds(5))
                    .header("content-type", "application/json").header("x-api-key", StackProcess.API_KEY)
                    .header("anthropic-routing-priority", s.tier()).POST(HttpRequest.BodyPublishers.ofString(BODY))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                boolean all = true;
                int inTier = 0;
                for (JsonNode c : EventCodec.mapper().readTree(response.body()).path("candidates")) {
                    if (s.tier().equals(c.path("tier").asString())) {
                        inTier++;
                        all &= c.path("eligible").asBoolean();
                    }
                }
                if (all && inTier >= 2) {
                    return;
                }
                last = response.body();
            } else {
                last = response.statusCode() + " " + response.body();
            }
            Thread.sleep(500); // polling the router until the tier is whole again
        }
        throw new IllegalStateException("tier " + s.tier() + " not fully eligible within " + limit + ": " + last);
    }

    static void inject(HttpClient http, Settings s, String fault) throws Exception {
        String body = String.format(Locale.ROOT, "{\"type\":\"%s\",\"durationMs\":%d,\"intensity\":1}", fault,
                s.fault().toMillis());
        HttpResponse<String> response = http.send(admin(s, "/admin/nodes/" + s.node() + "/faults")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("fault injection " + fault + " on " + s.node() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
    }

    static void clear(HttpClient http, Settings s) throws Exception {
        http.send(admin(s, "/admin/nodes/" + s.node() + "/faults").DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
    }

    static HttpRequest.Builder admin(Settings s, String path) {
        return HttpRequest.newBuilder(URI.create(s.simulator() + path)).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("Authorization", "Bearer " + s.adminToken());
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, Duration limit, String message)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(message);
            }
            Thread.sleep(50); // polling a background thread's flag
        }
    }

    static String markdown(List<FailoverAnalysis.Result> results, Settings s, String command) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Generated by `%s` on %s.%n%n", command, Machine.describe()));
        md.append(String.format(Locale.ROOT, "Steady open-loop non-streaming load of %d req/s pinned to tier `%s` "
                + "(`anthropic-routing-priority`), %d s before each fault, the fault for %d s (`durationMs`, intensity "
                + "1, injected on `%s` through `POST /admin/nodes/{id}/faults` with the admin bearer token), then %d s "
                + "more. The explain endpoint is polled every %d ms for the node's candidate entry; decision events "
                + "are read from `router.decisions.v1`. Client-visible errors: any non-200 answer or transport error "
                + "among requests due from the injection to the end of the window. The tier has another healthy "
                + "node throughout, so the target is zero. Before the first fault, %d s of the same load warm the stack "
                + "up unrecorded (a cold JIT would otherwise be charged to the first fault).%n%n", s.rate(), s.tier(),
                s.before().toSeconds(), s.fault().toSeconds(), s.node(), s.after().toSeconds(),
                s.explainEvery().toMillis(), s.warmup().toSeconds()));
        md.append(FailoverAnalysis.table(results)).append('\n');
        for (FailoverAnalysis.Result r : results) {
            md.append(String.format(Locale.ROOT, "- `%s`: %s; %s.%n", r.fault(),
                    r.firstBypassAfterMs() == null ? "**the router never bypassed the node** during the window"
                            : "first bypass " + FailoverAnalysis.ms(r.firstBypassAfterMs()) + " after injection",
                    r.clientErrorsInWindow() == 0 ? "zero client-visible errors (target met)"
                            : String.format(Locale.ROOT, "**%d client-visible errors** of %d requests (%s; target "
                                    + "zero: missed)", r.clientErrorsInWindow(), r.requestsInWindow(),
                                    r.errorStatuses())));
        }
        return md.toString();
    }

    /** Open-loop non-streaming requests at a fixed rate for a while, each recorded with its status and node. */
    static final class SteadyLoad {
        private final ConnectionProvider connections = ConnectionProvider.builder("failover-load").maxConnections(256)
                .pendingAcquireMaxCount(-1).build();
        private final reactor.netty.http.client.HttpClient client;
        private final String url;
        private final byte[] body;

        SteadyLoad(String url, Map<String, String> headers, String body) {
            this.url = url;
            this.body = body.getBytes(StandardCharsets.UTF_8);
            this.client = reactor.netty.http.client.HttpClient.create(connections)
                    .responseTimeout(Duration.ofSeconds(60)).headers(h -> {
                        h.set("content-type", "application/json");
                        headers.forEach(h::set);
                    });
        }

        void run(int rate, long millis, List<FailoverAnalysis.ClientRecord> records) {
            long total = Math.max(1, rate * millis / 1000);
            long interval = 1_000_000_000L / rate;
            long startNanos = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            CountDownLatch done = new CountDownLatch((int) total);
            java.util.concurrent.atomic.AtomicIntegerArray answered = new java.util.concurrent.atomic.AtomicIntegerArray(
                    (int) total);
            for (int i = 0; i < total; i++) {
                int index = i;
                long due = startNanos + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                long dueMillis = startMillis + (due - startNanos) / 1_000_000;
                client.post().uri(url).send(ByteBufFlux.fromInbound(Mono.just(body)))
                        .responseSingle((response, content) -> content.asString().defaultIfEmpty("").map(text -> {
                            String route = response.responseHeaders().get("X-Anthropic-Route");
                            String node = route == null ? null : route.substring(route.lastIndexOf('/') + 1);
                            return new FailoverAnalysis.ClientRecord(dueMillis, System.currentTimeMillis(),
                                    response.status().code(), node);
                        }))
                        .onErrorResume(e -> Mono.just(new FailoverAnalysis.ClientRecord(dueMillis,
                                System.currentTimeMillis(), 0, null)))
                        .subscribe(record -> {
                            answered.set(index, 1);
                            records.add(record);
                        }, e -> done.countDown(), done::countDown);
            }
            try {
                done.await(90, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int i = 0; i < total; i++) {
                if (answered.get(i) == 0) {
                    // no answer at all within the wait: a client-visible error (status -1)
                    records.add(new FailoverAnalysis.ClientRecord(startMillis + i * interval / 1_000_000,
                            System.currentTimeMillis(), -1, null));
                }
            }
        }

        void close() {
            connections.dispose();
        }
    }
}
