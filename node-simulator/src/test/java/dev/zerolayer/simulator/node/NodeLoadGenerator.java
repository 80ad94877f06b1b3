package dev.zerolayer.simulator.node;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.support.TestNode;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Closed-loop load on one node: N connections each send the next non-streaming request as soon as the previous answer
 * arrived, for a warm-up and then a measured period; prints requests per second and latency percentiles (HdrHistogram).
 * Without {@code --url} it starts a latency-off node in this JVM.
 *
 * <pre>
 * java -cp ... dev.zerolayer.simulator.node.NodeLoadGenerator --connections 64 --seconds 20 --warmup 5 \
 *     --max-tokens 128 [--url http://127.0.0.1:18105] [--api anthropic|openai]
 * </pre>
 */
public final class NodeLoadGenerator {

    private NodeLoadGenerator() {
    }

    public static void main(String[] args) {
        Map<String, String> options = options(args);
        int connections = Integer.parseInt(options.getOrDefault("connections", "64"));
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "20"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "5"));
        int maxTokens = Integer.parseInt(options.getOrDefault("max-tokens", "128"));
        boolean anthropic = !"openai".equals(options.getOrDefault("api", "anthropic"));
        String url = options.get("url");
        TestNode node = null;
        if (url == null) {
            node = TestNode.builder().id("bench-node").protocol(UpstreamProtocol.ANTHROPIC)
                    .profile(HardwareProfiles.L4_X2).capacity(Math.max(16, connections)).latency(false).start();
            url = node.node().baseUrl();
        }
        String path = anthropic ? "/v1/messages" : "/v1/chat/completions";
        System.out.printf(Locale.ROOT, "target %s%s, %d connections, %d s warm-up + %d s measured, max_tokens %d, %d cores%n",
                url, path, connections, warmup, seconds, maxTokens, Runtime.getRuntime().availableProcessors());

        ConnectionProvider pool = ConnectionProvider.builder("load").maxConnections(connections)
                .pendingAcquireMaxCount(-1).build();
        LoopResources loops = LoopResources.create("load", 1, true);
        HttpClient client = HttpClient.create(pool).runOn(loops).baseUrl(url)
                .headers(headers -> headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json"));
        try {
            run(client, path, anthropic, maxTokens, connections, Duration.ofSeconds(warmup), null);
            Result result = run(client, path, anthropic, maxTokens, connections, Duration.ofSeconds(seconds),
                    new Recorder(3));
            Histogram h = result.histogram();
            System.out.printf(Locale.ROOT,
                    "requests %d in %.1f s = %.0f req/s, errors %d; latency ms p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f%n",
                    h.getTotalCount(), result.seconds(), h.getTotalCount() / result.seconds(), result.errors(),
                    h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0,
                    h.getMaxValue() / 1000.0);
        } finally {
            pool.dispose();
            loops.dispose();
            if (node != null) {
                node.close();
            }
        }
    }

    private record Result(Histogram histogram, double seconds, long errors) {
    }

    private static Result run(HttpClient client, String path, boolean anthropic, int maxTokens, int connections,
            Duration duration, Recorder recorder) {
        AtomicLong sequence = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        Flux.range(0, connections)
                .flatMap(user -> Mono.defer(() -> {
                    String body = body(anthropic, maxTokens, sequence.incrementAndGet());
                    long sent = System.nanoTime();
                    return client.post().uri(path).send(ByteBufFlux.fromString(Mono.just(body)))
                            .responseSingle((response, content) -> content.asByteArray()
                                    .map(bytes -> response.status().code()))
                            .doOnNext(status -> {
                                if (status != 200) {
                                    errors.incrementAndGet();
                                } else if (recorder != null) {
                                    recorder.recordValue((System.nanoTime() - sent) / 1000);
                                }
                            })
                            .onErrorResume(e -> {
                                errors.incrementAndGet();
                                return Mono.empty();
                            });
                }).repeat(() -> System.nanoTime() < deadline), connections)
                .blockLast();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(recorder == null ? new Histogram(3) : recorder.getIntervalHistogram(), seconds, errors.get());
    }

    private static String body(boolean anthropic, int maxTokens, long n) {
        String prompt = "Hello! In one paragraph, what should I see in Lisbon? (request " + n + ")";
        return anthropic
                ? "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":" + maxTokens
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}"
                : "{\"model\":\"gpt-4o-mini\",\"max_tokens\":" + maxTokens
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
