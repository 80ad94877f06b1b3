package dev.zerolayer.bench.proxy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import dev.zerolayer.bench.stack.StackProcess;
import org.HdrHistogram.Histogram;

/**
 * Added latency of proxies in front of one simulated node (latency model off): the node called directly and through
 * each proxy at fixed open-loop rates, non-streaming (whole body) and streaming (first byte), side by side in one run;
 * added latency is a proxy's percentile minus the direct call's at the same rate and mode.
 *
 * <pre>
 * ./mvnw -B -q -pl bench package -DskipTests   (after ./mvnw -B -q install -DskipTests)
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.proxy.ProxyOverheadRun --stack --rates 200,1000 --duration 20
 * </pre>
 * With {@code --stack} it starts its own stack (broker, telemetry, router, simulator with latency off, full JIT) on
 * the given ports and stops it at the end; otherwise it uses {@code --router} and {@code --direct} as given. Extra proxies:
 * {@code --proxy name=http://host:port/v1/messages} (repeatable).
 */
public final class ProxyOverheadRun {

    private static final String KEY = StackProcess.API_KEY;
    private static final String BODY = "{\"model\":\"claude-opus-4-1\",\"max_tokens\":16,\"stream\":%s,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Reply with a short greeting.\"}]}";

    private ProxyOverheadRun() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> proxies = new LinkedHashMap<>();
        boolean startStack = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--stack" -> startStack = true;
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
        for (String rate : options.getOrDefault("rates", "200,1000").split(",")) {
            rates.add(Integer.parseInt(rate.trim()));
        }
        Duration length = Duration.ofSeconds(Long.parseLong(options.getOrDefault("duration", "20")));
        Duration warmup = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup", "10")));
        // the JVMs behind every target are first run hot (JIT) for this long, half non-streaming, half streaming
        Duration prewarm = Duration.ofSeconds(Long.parseLong(options.getOrDefault("prewarm", "60")));
        Path out = options.containsKey("out") ? Path.of(options.get("out")) : null;

        StackProcess stack = startStack ? StackProcess.start(Path.of(options.getOrDefault("root", ".")).toAbsolutePath(),
                routerPort, Integer.parseInt(options.getOrDefault("kafka-port", "19492")),
                "cache-service,complexity-service,fallback-service", Map.of("SPRING_APPLICATION_JSON",
                        "{\"zerolayer\":{\"simulator\":{\"latency\":false},\"router\":{\"requests-per-second\":"
                                + "1000000}}}")) : null;
        OpenLoopLoad load = new OpenLoopLoad(512);
        try {
            if (stack != null) {
                stack.awaitServes("/v1/messages", String.format(Locale.ROOT, BODY, false),
                        Map.of("anthropic-routing-priority", "opus"), Duration.ofSeconds(120));
            }
            Map<String, String> targets = new LinkedHashMap<>();
            targets.put("direct", direct + "/v1/messages");
            targets.put("zerolayer", router + "/v1/messages");
            targets.putAll(proxies);
            for (Map.Entry<String, String> target : targets.entrySet()) {
                for (boolean streaming : List.of(false, true)) {
                    load.run(new OpenLoopLoad.Target(target.getKey(), target.getValue(), headers(target.getKey()),
                            String.format(Locale.ROOT, BODY, streaming), streaming), rates.get(rates.size() - 1) / 2,
                            prewarm.dividedBy(2));
                }
            }
            List<OpenLoopLoad.Result> results = new ArrayList<>();
            for (int rate : rates) {
                for (boolean streaming : List.of(false, true)) {
                    for (Map.Entry<String, String> target : targets.entrySet()) {
                        OpenLoopLoad.Target t = new OpenLoopLoad.Target(target.getKey(), target.getValue(),
                                headers(target.getKey()), String.format(Locale.ROOT, BODY, streaming), streaming);
                        load.run(t, rate, warmup);
                        OpenLoopLoad.Result result = load.run(t, rate, length);
                        results.add(result);
                        System.err.println(line(result, null));
                    }
                }
            }
            String report = report(results, length);
            System.out.println(report);
            if (out != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.writeString(out, report);
            }
        } finally {
            load.close();
            if (stack != null) {
                stack.close();
            }
        }
    }

    private static Map<String, String> headers(String target) {
        return target.equals("zerolayer") ? Map.of("x-api-key", KEY, "anthropic-routing-priority", "opus")
                : Map.of("x-api-key", KEY, "anthropic-version", "2023-06-01");
    }

    static String report(List<OpenLoopLoad.Result> results, Duration length) {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "Open-loop, %d s per cell, latency from each request's due time "
                + "(coordinated omission corrected); non-streaming = whole body, streaming = first byte.%n%n",
                length.toSeconds()));
        table.append("| rate (req/s) | mode | target | p50 ms | p90 ms | p99 ms | p99.9 ms | added p50 ms | added p99 ms"
                + " | added p99.9 ms | ok | failed |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (OpenLoopLoad.Result result : results) {
            OpenLoopLoad.Result base = results.stream().filter(r -> r.target().equals("direct")
                    && r.rate() == result.rate() && r.streaming() == result.streaming()).findFirst().orElse(null);
            table.append(line(result, base)).append('\n');
        }
        return table.toString();
    }

    static String line(OpenLoopLoad.Result r, OpenLoopLoad.Result base) {
        Histogram h = r.latencyMicros();
        String added = base == null || base == r ? "| – | – | – " : String.format(Locale.ROOT, "| %.2f | %.2f | %.2f ",
                ms(h, 50) - ms(base.latencyMicros(), 50), ms(h, 99) - ms(base.latencyMicros(), 99),
                ms(h, 99.9) - ms(base.latencyMicros(), 99.9));
        return String.format(Locale.ROOT, "| %d | %s | %s | %.2f | %.2f | %.2f | %.2f %s| %d | %d |", r.rate(),
                r.streaming() ? "stream (TTFB)" : "non-stream", r.target(), ms(h, 50), ms(h, 90), ms(h, 99),
                ms(h, 99.9), added, r.ok(), r.failed());
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
