package dev.zerolayer.bench.ha;

import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * How soon one router sees the load another router sends (#27 item 3): {@code ./zerolayer up --replicas 2}; a burst
 * of long streaming haiku requests is sent through router 1 only, while router 2's {@code /v1/route/explain} is polled
 * every 20 ms; the time from the burst's start until router 2's {@code load} term of a haiku node falls by at least
 * {@code drop} below its value before the burst (that node's effective load rose), and the same for router 1 itself
 * (its own in-flight count, at once) for reference; {@code bursts} rounds, each after the last has drained. Each
 * burst also prints the haiku nodes a router did not weigh before it (with the reason: such a node has no value to
 * fall from) and the largest fall each router showed.
 *
 * <p>Usage: {@code LoadVisibilityRun <root> [bursts=5] [concurrency=12] [drop=0.15]}.
 */
public final class LoadVisibilityRun {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final String EXPLAIN_BODY = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"how loaded are you\"}]}";

    private LoadVisibilityRun() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int bursts = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 12;
        double drop = args.length > 3 ? Double.parseDouble(args[3]) : 0.15;
        List<Double> seenByOther = new ArrayList<>();
        List<Double> seenBySender = new ArrayList<>();
        try (StackProcess stack = StackProcess.start(root, 18480, 19392, "", Map.of(), List.of("--replicas", "2"))) {
            stack.awaitServes("/v1/messages", EXPLAIN_BODY, Map.of("anthropic-routing-priority", "haiku"),
                    Duration.ofSeconds(180));
            String sender = "http://127.0.0.1:18090";
            String other = "http://127.0.0.1:18091";
            for (int burst = 1; burst <= bursts; burst++) {
                Map<String, String> otherLeftOut = new java.util.TreeMap<>();
                Map<String, String> senderLeftOut = new java.util.TreeMap<>();
                Map<String, Double> before = loads(other, otherLeftOut);
                Map<String, Double> senderBefore = loads(sender, senderLeftOut);
                if (!otherLeftOut.isEmpty() || !senderLeftOut.isEmpty()) {
                    // a node left out before the burst has no load term to compare: say why, so a miss is explained
                    System.out.printf(Locale.ROOT, "burst %d: haiku nodes not weighed before it: router 1 %s, "
                            + "router 2 %s%n", burst, senderLeftOut, otherLeftOut);
                }
                long start = System.nanoTime();
                List<CompletableFuture<HttpResponse<Void>>> inFlight = new ArrayList<>();
                for (int i = 0; i < concurrency; i++) {
                    inFlight.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(sender + "/v1/messages"))
                            .timeout(Duration.ofSeconds(120)).header("content-type", "application/json")
                            .header("x-api-key", StackProcess.API_KEY).header("anthropic-routing-priority", "haiku")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-haiku-4-5\","
                                    + "\"max_tokens\":600,\"stream\":true,\"messages\":[{\"role\":\"user\","
                                    + "\"content\":\"write a long story, number " + burst + "-" + i + "\"}]}"))
                            .build(), HttpResponse.BodyHandlers.discarding()));
                }
                double[] largest = new double[2];
                double[] seen = firstDrops(List.of(other, sender), List.of(before, senderBefore), drop, start,
                        largest);
                double other1 = seen[0];
                double sender1 = seen[1];
                seenByOther.add(other1);
                seenBySender.add(sender1);
                System.out.printf(Locale.ROOT, "burst %d: %d requests through router 1; router 1 saw the load after "
                        + "%.0f ms, router 2 after %.0f ms (largest drop of a node's load term: router 1 %.3f, "
                        + "router 2 %.3f; router 2's terms before: %s)%n", burst, concurrency, sender1, other1,
                        largest[1], largest[0], before);
                CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
                Thread.sleep(5000); // the nodes' load falls back before the next burst (a measurement window)
            }
        }
        System.out.printf(Locale.ROOT, "router 2 saw router 1's load after %s ms (bursts of %d); router 1 itself "
                + "after %s ms%n",
                seenByOther.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList(), concurrency,
                seenBySender.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList());
    }

    /**
     * Polls each router's explain in turn (every 20 ms) until each shows a haiku node's load term fallen by
     * {@code drop} from its value before; for each, ms since start (NaN: not within 30 s), and in {@code largest} the
     * largest fall seen meanwhile.
     */
    private static double[] firstDrops(List<String> routers, List<Map<String, Double>> before, double drop,
            long start, double[] largest) throws InterruptedException {
        double[] seen = new double[routers.size()];
        java.util.Arrays.fill(seen, Double.NaN);
        long deadline = start + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && java.util.Arrays.stream(seen).anyMatch(Double::isNaN)) {
            for (int r = 0; r < routers.size(); r++) {
                if (!Double.isNaN(seen[r])) {
                    continue;
                }
                for (Map.Entry<String, Double> entry : loads(routers.get(r)).entrySet()) {
                    Double was = before.get(r).get(entry.getKey());
                    if (was == null) {
                        continue;
                    }
                    largest[r] = Math.max(largest[r], was - entry.getValue());
                    if (was - entry.getValue() >= drop) {
                        seen[r] = (System.nanoTime() - start) / 1e6;
                        break;
                    }
                }
            }
            Thread.sleep(20); // polling the explain endpoints (the measurement's resolution)
        }
        return seen;
    }

    /** The {@code load} term (1 - effective load) of every eligible haiku node as the router scores it now. */
    private static Map<String, Double> loads(String router) {
        return loads(router, null);
    }

    /** As {@link #loads(String)}; haiku nodes left out of the weighing go to {@code excluded} with the reason. */
    private static Map<String, Double> loads(String router, Map<String, String> excluded) {
        Map<String, Double> loads = new HashMap<>();
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(router + "/v1/route/explain"))
                    .timeout(Duration.ofSeconds(5)).header("content-type", "application/json")
                    .header("x-api-key", StackProcess.API_KEY).header("anthropic-routing-priority", "haiku")
                    .POST(HttpRequest.BodyPublishers.ofString(EXPLAIN_BODY)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                for (JsonNode candidate : EventCodec.mapper().readTree(response.body()).path("candidates")) {
                    if (!candidate.path("tier").asString("").equals("haiku")) {
                        continue;
                    }
                    JsonNode load = candidate.path("terms").path("load");
                    String node = candidate.path("node").asString("");
                    if (load.isNumber()) {
                        loads.put(node, load.asDouble());
                    } else if (excluded != null) {
                        excluded.put(node, candidate.path("excluded_because").asString("?"));
                    }
                }
            }
        } catch (IOException e) {
            // a missed poll; the next one counts
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return loads;
    }
}
