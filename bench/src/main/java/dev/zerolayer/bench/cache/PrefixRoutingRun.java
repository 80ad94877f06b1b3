package dev.zerolayer.bench.cache;

import dev.zerolayer.bench.stack.StackProcess;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * Cache-aware routing on versus off, same seed, same multi-turn chat traffic, in one run: the stack (simulated nodes
 * with their latency model, cache-service in the loop) is started once with {@code zerolayer.router.cache-aware=false}
 * and once with {@code true}; each time {@code sessions} conversations with their own long system prompt grow turn by
 * turn (streaming, pinned to sonnet), and the run reports time to first byte and the nodes' token-weighted prefix
 * cache hit rate ({@code vllm:prefix_cache_hits_total / vllm:prefix_cache_queries_total} over the run).
 *
 * <p>With {@code --tokenizer DIR} (a Hugging Face model's tokenizer files, e.g. Qwen3's) two haiku nodes play vLLM
 * serving that model (its tokenizer and chat template, sha256_cbor hashes) and the traffic is OpenAI chat clients
 * pinned to haiku; cache-aware routing is on both times and what changes is whether those nodes declare their prefix
 * caching: declared, the router computes their exact block hashes; undeclared, it can only hash its default way, as
 * against a real fleet before this existed; {@code approximate}: declared, but the router runs with
 * {@code exact-prefixes=false} and matches them on what it sent where.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.cache.PrefixRoutingRun --sessions 24 --turns 6
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.cache.PrefixRoutingRun --sessions 24 --turns 6 \
 *     --tokenizer ../shared/data/tokenizers/qwen3 [--apps K] [--kv-blocks N] [--modes undeclared,exact,approximate]
 * </pre>
 */
public final class PrefixRoutingRun {

    private static final Pattern HITS = Pattern.compile("^vllm:prefix_cache_hits_total\\{[^}]*\\} ([0-9.eE+-]+)$",
            Pattern.MULTILINE);
    private static final Pattern QUERIES = Pattern.compile(
            "^vllm:prefix_cache_queries_total\\{[^}]*\\} ([0-9.eE+-]+)$", Pattern.MULTILINE);
    private static final String[] WORDS = ("order parcel delivery customs invoice warehouse route driver depot "
            + "tracking label pallet freight courier address refund return claim damage schedule weight volume "
            + "express standard priority region hub transfer scan signature window carrier manifest").split(" ");

    private PrefixRoutingRun() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int sessions = Integer.parseInt(options.getOrDefault("sessions", "24"));
        int turns = Integer.parseInt(options.getOrDefault("turns", "6"));
        int concurrency = Integer.parseInt(options.getOrDefault("concurrency", "4"));
        long seed = Long.parseLong(options.getOrDefault("seed", "42"));
        long thinkMs = Long.parseLong(options.getOrDefault("think-ms", "500"));
        Path root = Path.of(options.getOrDefault("root", ".")).toAbsolutePath();
        int routerPort = Integer.parseInt(options.getOrDefault("router-port", "18480"));
        int kafkaPort = Integer.parseInt(options.getOrDefault("kafka-port", "19492"));
        int apps = Integer.parseInt(options.getOrDefault("apps", "0"));
        List<Conversation> traffic = traffic(sessions, turns, seed, apps);
        String tokenizer = options.containsKey("tokenizer")
                ? Path.of(options.get("tokenizer")).toAbsolutePath().normalize().toString() : null;

        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "%d sessions × %d turns (seed %d), %s, %d concurrent, %d ms between "
                + "turns; streaming, pinned to %s; TTFB through the router.%n%n", sessions, turns, seed,
                apps > 0 ? "sessions sharing " + apps + " system prompts" : "a system prompt per session",
                concurrency, thinkMs, tokenizer == null ? "sonnet (Anthropic clients)"
                        : "haiku (OpenAI chat clients; two nodes play vLLM serving " + tokenizer + ")"));
        report.append(tokenizer == null ? "| cache-aware routing " : "| vLLM nodes declare their prefix caching ");
        report.append("| requests | TTFB p50 ms | TTFB p90 ms | TTFB p99 ms | prefix cache hit "
                + "rate (tokens) | failed |\n|---|---|---|---|---|---|---|\n");
        // with a tokenizer: undeclared (default hashes), exact (declared), approximate (declared, router not exact)
        List<String> modes = tokenizer == null ? List.of("off", "on")
                : List.of(options.getOrDefault("modes", "undeclared,exact").split(","));
        for (String mode : modes) {
            boolean cacheAware = !mode.equals("off") && !mode.equals("undeclared");
            Map<String, String> env = new java.util.HashMap<>(Map.of("SPRING_APPLICATION_JSON",
                    "{\"zerolayer\":{\"router\":{\"cache-aware\":" + (cacheAware || tokenizer != null)
                    + ",\"exact-prefixes\":" + !mode.equals("approximate")
                    + ",\"requests-per-second\":1000000}}}"));
            if (tokenizer != null) {
                env.put("ZEROLAYER_SIMULATOR_TOKENIZER", tokenizer);
                env.put("ZEROLAYER_SIMULATOR_HAIKU_PROTOCOLS", "anthropic,openai,openai");
                env.put("ZEROLAYER_SIMULATOR_DECLARE_PREFIX_CACHE", Boolean.toString(cacheAware));
                // a smaller KV cache per node (blocks): the fleet's working set no longer fits on one node
                env.put("ZEROLAYER_SIMULATOR_HAIKU_KV_BLOCKS", options.getOrDefault("kv-blocks", "0"));
            }
            try (StackProcess stack = StackProcess.start(root, routerPort, kafkaPort,
                    "complexity-service,fallback-service,console-service", env)) {
                stack.awaitServes("/v1/messages", "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":4,\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"warm up\"}]}", Map.of("anthropic-routing-priority",
                        "sonnet"), Duration.ofSeconds(120));
                warmNodes();
                double[] before = cacheCounters();
                Result result = run(stack.router(), traffic, turns, concurrency, thinkMs, tokenizer != null);
                double[] after = cacheCounters();
                double hitRate = (after[0] - before[0]) / Math.max(1, after[1] - before[1]);
                Histogram h = result.ttfbMicros();
                String line = String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f %% | %d |",
                        tokenizer == null ? mode : switch (mode) {
                            case "exact" -> "yes (exact hashes)";
                            case "approximate" -> "yes, router not exact (approximate: what it sent where)";
                            default -> "no (router's default hashes)";
                        }, h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0,
                        h.getValueAtPercentile(90) / 1000.0, h.getValueAtPercentile(99) / 1000.0, 100 * hitRate,
                        result.failed());
                System.err.println(line);
                report.append(line).append('\n');
            }
        }
        System.out.println(report);
        if (options.containsKey("out")) {
            Path out = Path.of(options.get("out"));
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report.toString());
        }
    }

    record Conversation(String session, String system, List<String> userTurns, List<String> replies) {
    }

    record Result(Histogram ttfbMicros, int failed) {
    }

    /**
     * Deterministic sessions: a ~600-token system prompt each (with {@code apps} > 0, session s shares app
     * {@code s % apps}'s, as the users of one application do), short user turns and fixed assistant replies.
     */
    static List<Conversation> traffic(int sessions, int turns, long seed, int apps) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> shared = new ArrayList<>();
        SplittableRandom appRandom = new SplittableRandom(seed ^ 0x5A5AL);
        for (int a = 0; a < apps; a++) {
            shared.add("Application " + a + " instructions: " + words(appRandom, 450));
        }
        List<Conversation> traffic = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            String system = apps > 0 ? shared.get(s % apps) : "Session " + s + " instructions: " + words(random, 450);
            List<String> users = new ArrayList<>();
            List<String> replies = new ArrayList<>();
            for (int t = 0; t < turns; t++) {
                users.add("Question " + t + ": " + words(random, 25));
                replies.add("Answer " + t + ": " + words(random, 35));
            }
            traffic.add(new Conversation("bench-session-" + seed + "-" + s, system, users, replies));
        }
        return traffic;
    }

    private static String words(SplittableRandom random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? ". " : " ");
        }
        return text.toString().trim();
    }

    private static Result run(String router, List<Conversation> traffic, int turns, int concurrency, long thinkMs,
            boolean openAi) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Histogram ttfb = new Histogram(3);
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            for (int turn = 0; turn < turns; turn++) {
                List<Conversation> order = new ArrayList<>(traffic);
                Collections.shuffle(order, new java.util.Random(turn));
                List<Future<?>> inFlight = new ArrayList<>();
                for (Conversation conversation : order) {
                    String body = openAi ? chatBody(conversation, turn) : body(conversation, turn);
                    inFlight.add(pool.submit(() -> {
                        HttpRequest request = HttpRequest.newBuilder(URI.create(router + (openAi
                                        ? "/v1/chat/completions" : "/v1/messages")))
                                .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
                                .header("x-api-key", StackProcess.API_KEY)
                                .header("anthropic-routing-priority", openAi ? "haiku" : "sonnet")
                                .header("x-session-id", conversation.session())
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        long start = System.nanoTime();
                        try {
                            HttpResponse<InputStream> response = http.send(request,
                                    HttpResponse.BodyHandlers.ofInputStream());
                            try (InputStream in = response.body()) {
                                int first = in.read();
                                long micros = (System.nanoTime() - start) / 1_000;
                                in.readAllBytes();
                                if (response.statusCode() != 200 || first < 0) {
                                    failed.incrementAndGet();
                                } else {
                                    synchronized (ttfb) {
                                        ttfb.recordValue(Math.max(1, micros));
                                    }
                                }
                            }
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> future : inFlight) {
                    future.get();
                }
                Thread.sleep(thinkMs); // the users' think time between turns: pacing, not synchronisation
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(ttfb, failed.get());
    }

    private static String body(Conversation conversation, int turn) {
        StringBuilder messages = new StringBuilder();
        for (int t = 0; t <= turn; t++) {
            if (t > 0) {
                messages.append(',');
            }
            messages.append("{\"role\":\"user\",\"content\":\"").append(conversation.userTurns().get(t)).append("\"}");
            if (t < turn) {
                messages.append(",{\"role\":\"assistant\",\"content\":\"").append(conversation.replies().get(t))
                        .append("\"}");
            }
        }
        return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":32,\"stream\":true,\"system\":\""
                + conversation.system() + "\",\"messages\":[" + messages + "]}";
    }

    /** The same conversation as an OpenAI chat body (the system prompt as the first message). */
    private static String chatBody(Conversation conversation, int turn) {
        StringBuilder messages = new StringBuilder("{\"role\":\"system\",\"content\":\"")
                .append(conversation.system()).append("\"}");
        for (int t = 0; t <= turn; t++) {
            messages.append(",{\"role\":\"user\",\"content\":\"").append(conversation.userTurns().get(t))
                    .append("\"}");
            if (t < turn) {
                messages.append(",{\"role\":\"assistant\",\"content\":\"").append(conversation.replies().get(t))
                        .append("\"}");
            }
        }
        return "{\"model\":\"Qwen/Qwen3-0.6B\",\"max_tokens\":32,\"stream\":true,\"messages\":[" + messages + "]}";
    }

    /** One tiny request to every simulated node directly, so no node's cold start (CUDA-graph warm-up) is measured. */
    private static void warmNodes() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String nodes = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:18085/admin/nodes")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher urls = Pattern.compile("\"url\":\"(http://[^\"]+)\"").matcher(nodes);
        while (urls.find()) {
            // each node answers the path of its own API (the other one is a 404)
            for (String path : List.of("/v1/messages", "/v1/chat/completions")) {
                http.send(HttpRequest.newBuilder(URI.create(urls.group(1) + path))
                        .header("content-type", "application/json").header("anthropic-version", "2023-06-01")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"max_tokens\":2,\"messages\":"
                                + "[{\"role\":\"user\",\"content\":\"warm up\"}]}")).build(),
                        HttpResponse.BodyHandlers.discarding());
            }
        }
        Thread.sleep(3_000); // the nodes' warm-ups end and their health records say so again (pacing, not a sync)
    }

    /** Prefix cache hit and query tokens summed over every simulated node's {@code /metrics}. */
    private static double[] cacheCounters() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String nodes = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:18085/admin/nodes")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher urls = Pattern.compile("\"url\":\"(http://[^\"]+)\"").matcher(nodes);
        double hits = 0;
        double queries = 0;
        while (urls.find()) {
            String metrics = http.send(HttpRequest.newBuilder(URI.create(urls.group(1) + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            hits += sum(HITS.matcher(metrics));
            queries += sum(QUERIES.matcher(metrics));
        }
        return new double[] {hits, queries};
    }

    private static double sum(Matcher matcher) {
        double total = 0;
        while (matcher.find()) {
            total += Double.parseDouble(matcher.group(1));
        }
        return total;
    }
}
