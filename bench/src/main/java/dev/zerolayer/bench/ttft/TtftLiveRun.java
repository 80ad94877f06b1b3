package dev.zerolayer.bench.ttft;

import dev.zerolayer.bench.replay.ZeroLayerPolicy;
import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue #31 live: the local stack ({@code ./zerolayer up}'s launcher; simulated nodes with their latency model), an
 * open-loop streaming load the sonnet tier cannot carry, first with the default policy, then with issue #31's TTFT
 * policy put through fallback-service; per mode the client's time to first byte (from each request's scheduled start,
 * so a late send counts), the served tier mix, fallback reasons and the router's TTFT prediction error.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.ttft.TtftLiveRun --rate 16 --seconds 60
 * </pre>
 */
public final class TtftLiveRun {

    /** Words of the prompts' sentences: the default complexity scorer puts these prompts near 0.42 (sonnet). */
    private static final String[] WORDS = ("parcel Tuesday neighbour box Leeds sister birthday present window door "
            + "garden street morning evening").split(" ");
    private static final Pattern QUANTILE = Pattern.compile(
            "^zerolayer_ttft_prediction_error_ms\\{[^}]*quantile=\"([0-9.]+)\"[^}]*\\} ([0-9.eE+-]+)$",
            Pattern.MULTILINE);
    private static final Pattern COUNT = Pattern.compile(
            "^zerolayer_ttft_prediction_error_ms_count(?:\\{[^}]*\\})? ([0-9.eE+-]+)$", Pattern.MULTILINE);

    private TtftLiveRun() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        double rate = Double.parseDouble(options.getOrDefault("rate", "16"));
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "60"));
        int maxTokens = Integer.parseInt(options.getOrDefault("max-tokens", "200"));
        int promptWords = Integer.parseInt(options.getOrDefault("prompt-sentences", "40"));
        Path root = Path.of(options.getOrDefault("root", ".")).toAbsolutePath();
        int routerPort = Integer.parseInt(options.getOrDefault("router-port", "18480"));
        int kafkaPort = Integer.parseInt(options.getOrDefault("kafka-port", "19492"));
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT, "Open loop %.1f requests/s for %d s per "
                + "mode, streaming, max_tokens %d, prompts of %d translation sentences (~19 tokens each, random words; "
                + "the default scorer puts them at complexity ~0.42, tier sonnet), unpinned; TTFB from each "
                + "request's scheduled start.%n%n| policy | requests | TTFB p50 ms | TTFB p90 ms | TTFB p99 ms | failed | "
                + "served haiku / sonnet / opus | fallbacks | predictor error p50 / p90 ms (n) |%n"
                + "|---|---|---|---|---|---|---|---|---|%n", rate, seconds, maxTokens, promptWords));
        Map<String, String> env = Map.of("SPRING_APPLICATION_JSON",
                "{\"zerolayer\":{\"router\":{\"requests-per-second\":1000000}}}");
        try (StackProcess stack = StackProcess.start(root, routerPort, kafkaPort, "complexity-service,console-service", env)) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            stack.awaitServes("/v1/messages", body(prompt(new SplittableRandom(1), 2), 4), Map.of(),
                    Duration.ofSeconds(120));
            // warm every node (CUDA-graph warm-up) through the router at a low rate, then let the queues drain
            run(http, stack.router(), 2, 20, maxTokens, promptWords, 7);
            for (String mode : new String[] {"off", "on"}) {
                if (mode.equals("on")) {
                    putTtftPolicy(http);
                    awaitPolicy(http, stack.router());
                }
                double[] before = predictorError(http, stack.router());
                Result result = run(http, stack.router(), rate, seconds, maxTokens, promptWords, 42);
                double[] after = predictorError(http, stack.router());
                Histogram h = result.ttfbMicros;
                int served = result.tiers.values().stream().mapToInt(AtomicInteger::get).sum();
                String line = String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.0f | %d | %s | %s | %s |",
                        mode.equals("on") ? "TTFT policy (issue #31)" : "default", result.sent.get(),
                        h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                        h.getValueAtPercentile(99) / 1000.0, result.failed.get(),
                        String.format(Locale.ROOT, "%.1f / %.1f / %.1f %%", share(result, "haiku", served),
                                share(result, "sonnet", served), share(result, "opus", served)),
                        result.fallbacks.isEmpty() ? "–" : new java.util.TreeMap<>(result.fallbacks).toString(),
                        after == null ? "–" : String.format(Locale.ROOT, "%.0f / %.0f (%.0f)", after[0], after[1],
                                after[2] - (before == null ? 0 : before[2])));
                System.err.println(line);
                report.append(line).append('\n');
            }
        }
        report.append("\nThe predictor error quantiles are the router's `zerolayer_ttft_prediction_error_ms` summary "
                + "(cumulative since start, Micrometer's decaying quantiles); n is the observations during the mode.\n");
        System.out.println(report);
        if (options.containsKey("out")) {
            Path out = Path.of(options.get("out"));
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report.toString());
        }
    }

    private static double share(Result result, String tier, int served) {
        AtomicInteger n = result.tiers.get(tier);
        return served == 0 || n == null ? 0.0 : 100.0 * n.get() / served;
    }

    /** Puts issue #31's scoring section ({@link ZeroLayerPolicy#TTFT_SCORING}) into the active policy. */
    private static void putTtftPolicy(HttpClient http) throws Exception {
        HttpResponse<String> current = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:18084/v1/policy")).header("accept", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        ObjectNode policy = (ObjectNode) EventCodec.mapper().readTree(current.body());
        policy.set("scoring", EventCodec.mapper().valueToTree(ZeroLayerPolicy.TTFT_SCORING));
        String etag = current.headers().firstValue("etag").orElseThrow();
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:18084/v1/policy"))
                .header("content-type", "application/json").header("if-match", etag)
                .header("authorization", "Bearer " + StackProcess.ADMIN_TOKEN)
                .PUT(HttpRequest.BodyPublishers.ofString(policy.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() / 100 != 2) {
            throw new IllegalStateException("PUT /v1/policy: " + put.statusCode() + " " + put.body());
        }
    }

    /** Polls the router's explain until the scoring that runs weighs predicted TTFT (the new version arrived). */
    private static void awaitPolicy(HttpClient http, String router) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> explain = http.send(HttpRequest.newBuilder(URI.create(router + "/v1/route/explain"))
                    .header("content-type", "application/json").header("x-api-key", StackProcess.API_KEY)
                    .header("anthropic-version", "2023-06-01")
                    .POST(HttpRequest.BodyPublishers.ofString(body("policy probe", 4))).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (explain.body().contains("predicted_ttft")) {
                return;
            }
            Thread.sleep(250); // polling interval, bounded by the deadline
        }
        throw new IllegalStateException("the router did not pick up the TTFT policy within 60 s");
    }

    /** {p50, p90, count} of the router's prediction error summary, or null when it does not export it. */
    private static double[] predictorError(HttpClient http, String router) {
        try {
            String metrics = http.send(HttpRequest.newBuilder(URI.create(router + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            double p50 = Double.NaN;
            double p90 = Double.NaN;
            Matcher q = QUANTILE.matcher(metrics);
            while (q.find()) {
                if (q.group(1).startsWith("0.5")) {
                    p50 = Double.parseDouble(q.group(2));
                } else if (q.group(1).startsWith("0.9")) {
                    p90 = Double.parseDouble(q.group(2));
                }
            }
            Matcher c = COUNT.matcher(metrics);
            return c.find() ? new double[] {p50, p90, Double.parseDouble(c.group(1))} : null;
        } catch (Exception e) {
            return null;
        }
    }

    static final class Result {
        final Histogram ttfbMicros = new ConcurrentHistogram(3_600_000_000L, 3);
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final Map<String, AtomicInteger> tiers = new ConcurrentHashMap<>();
        final Map<String, Integer> fallbacks = new ConcurrentHashMap<>();
    }

    /** Sends {@code rate} requests per second for {@code seconds}, each from its own thread, and waits for all. */
    static Result run(HttpClient http, String router, double rate, int seconds, int maxTokens, int promptWords,
            long seed) throws Exception {
        Result result = new Result();
        ExecutorService pool = Executors.newCachedThreadPool();
        SplittableRandom random = new SplittableRandom(seed);
        long start = System.nanoTime();
        int total = (int) Math.round(rate * seconds);
        for (int i = 0; i < total; i++) {
            long scheduled = start + (long) (i * 1e9 / rate);
            long wait = scheduled - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // open-loop pacing
            }
            String body = body(prompt(random.split(), promptWords), maxTokens);
            result.sent.incrementAndGet();
            pool.execute(() -> one(http, router, body, scheduled, result));
        }
        pool.shutdown();
        if (!pool.awaitTermination(10, TimeUnit.MINUTES)) {
            pool.shutdownNow();
        }
        return result;
    }

    private static void one(HttpClient http, String router, String body, long scheduled, Result result) {
        try {
            HttpResponse<java.io.InputStream> response = http.send(HttpRequest.newBuilder(
                    URI.create(router + "/v1/messages")).timeout(Duration.ofSeconds(180))
                    .header("content-type", "application/json").header("x-api-key", StackProcess.API_KEY)
                    .header("anthropic-version", "2023-06-01").header("anthropic-debug", "route")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream in = response.body()) {
                int first = in.read();
                long ttfb = System.nanoTime() - scheduled;
                byte[] rest = in.readAllBytes();
                if (response.statusCode() != 200 || first < 0
                        || new String(rest, java.nio.charset.StandardCharsets.UTF_8).contains("event: error")) {
                    result.failed.incrementAndGet();
                    return;
                }
                result.ttfbMicros.recordValue(Math.max(1, ttfb / 1_000));
                response.headers().firstValue("x-anthropic-route").ifPresent(route -> result.tiers
                        .computeIfAbsent(route.split("/")[0], t -> new AtomicInteger()).incrementAndGet());
                response.headers().firstValue("x-anthropic-fallback-reason")
                        .ifPresent(reason -> result.fallbacks.merge(reason, 1, Integer::sum));
            }
        } catch (Exception e) {
            result.failed.incrementAndGet();
        }
    }

    /** {@code sentences} translation requests of random words: ~19 tokens each, scored near 0.42 (sonnet). */
    private static String prompt(SplittableRandom random, int sentences) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            text.append(String.format(Locale.ROOT, "Translate the following sentence into French: the %s arrived on "
                    + "%s and my %s took it in. ", WORDS[random.nextInt(WORDS.length)],
                    WORDS[random.nextInt(WORDS.length)], WORDS[random.nextInt(WORDS.length)]));
        }
        return text.toString();
    }

    private static String body(String prompt, int maxTokens) {
        ObjectNode body = EventCodec.mapper().createObjectNode();
        body.put("model", "claude-sonnet-4-5").put("max_tokens", maxTokens).put("stream", true);
        body.putArray("messages").addObject().put("role", "user").put("content", prompt);
        return body.toString();
    }
}
