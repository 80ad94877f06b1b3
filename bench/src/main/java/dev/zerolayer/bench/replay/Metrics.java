package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's figures from a run: time-to-first-token percentiles (nearest rank) over first tries that got a first
 * token, the p99 over all requests with a failed one counting as never (infinite), and the client TTFT over all
 * requests ({@link #clientTtft}); failures by kind, token-weighted cache hit rate, per-node utilisation (time-averaged
 * busy share) with its population variance across nodes, tier mix, cost per 1,000 requests, per-window percentiles.
 */
public final class Metrics {

    static final List<String> TIERS = List.of("haiku", "sonnet", "opus");

    /**
     * A TTFT predictor's error over every first byte it learned from: count, p50 and p90 of |predicted − observed| in
     * ms, and of that error relative to the observed TTFT.
     */
    public record PredictionError(int observations, double p50Ms, double p90Ms, double p50Relative,
            double p90Relative) {
    }

    /** One policy's summary. */
    public record Summary(String policy, int requests, int ok, int timeouts, int errors, int cut, int noNode,
            double ttftP50, double ttftP90, double ttftP99, double ttftP999, double ttftP99AllRequests,
            double cacheHitRate,
            double[] utilisation, double utilMean, double utilVariance, Map<String, Double> servedTierMix,
            Map<String, Double> decidedTierMix, double costPer1000, Map<String, Integer> fallbacks,
            double clientTtftP50, double clientTtftP99, int retried, int failedAfterRetry) {

        public int failed() {
            return timeouts + errors + cut + noNode;
        }

        public double failureRate() {
            return requests == 0 ? 0.0 : failed() / (double) requests;
        }

        public double utilStd() {
            return Math.sqrt(utilVariance);
        }
    }

    /**
     * One window of the timeline (by arrival): served count, failures, p50 and p99 of first tries served (NaN when
     * nothing was served) and p99 of the client TTFT over every request of the window.
     */
    /**
     * One window of the timeline by arrival: served first tries and their p50/p99 TTFT, and the client TTFT
     * (failures charged, one retry) at p50, p90 and p99.
     */
    public record Window(double start, int served, int failed, double p50, double p99, double clientP50,
            double clientP90, double clientP99) {
    }

    private Metrics() {
    }

    /**
     * The client's time to its first token, from the request's arrival: the first try's TTFT when it got one; else,
     * when the client's one retry got one, the wait until the retry started plus the retry's TTFT; else (failed
     * twice) the decided tier's first-byte deadline or the time until the client gave up, whichever is later — "not
     * served within the deadline".
     */
    public static double clientTtft(Outcome first, Outcome retry, PolicyDocument policy) {
        if (first.gotFirstToken()) {
            return first.ttft();
        }
        if (retry != null && retry.gotFirstToken()) {
            return retry.arrival() - first.arrival() + retry.ttft();
        }
        Outcome last = retry == null ? first : retry;
        TierLimits limits = policy.limits().get(first.decidedTier());
        double deadline = limits == null ? 0.0 : limits.deadlineMs() / 1000.0;
        return Math.max(deadline, last.end() - first.arrival());
    }

    public static Summary summarise(Replay.Result result, Pricing pricing) {
        return summarise(result, pricing, PolicyDocument.defaults());
    }

    public static Summary summarise(Replay.Result result, Pricing pricing, PolicyDocument policy) {
        List<Outcome> outcomes = result.outcomes();
        double[] client = new double[outcomes.size()];
        int retried = 0;
        int failedAfterRetry = 0;
        int ok = 0;
        int timeouts = 0;
        int errors = 0;
        int cut = 0;
        int noNode = 0;
        long context = 0;
        long cached = 0;
        double cost = 0;
        List<Double> ttfts = new ArrayList<>();
        Map<String, Integer> served = new LinkedHashMap<>();
        Map<String, Integer> decided = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            switch (o.status()) {
                case OK -> ok++;
                case TIMEOUT -> timeouts++;
                case ERROR -> errors++;
                case CUT -> cut++;
                case NO_NODE -> noNode++;
                default -> throw new IllegalStateException();
            }
            decided.merge(o.decidedTier(), 1, Integer::sum);
            Outcome retry = result.retry(o.id());
            client[o.id()] = clientTtft(o, retry, policy);
            if (retry != null) {
                retried++;
                if (retry.status() == Outcome.Status.OK) {
                    cost += pricing.cost(retry.servedTier(), retry.contextTokens(), retry.generatedTokens());
                } else {
                    failedAfterRetry++;
                }
            }
            if (o.gotFirstToken()) {
                ttfts.add(o.ttft());
                context += o.contextTokens();
                cached += o.cachedTokens();
                served.merge(o.servedTier(), 1, Integer::sum);
            }
            if (o.status() == Outcome.Status.OK) {
                cost += pricing.cost(o.servedTier(), o.contextTokens(), o.generatedTokens());
            }
        }
        double[] sorted = ttfts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] all = Arrays.copyOf(sorted, outcomes.size());
        Arrays.fill(all, sorted.length, all.length, Double.POSITIVE_INFINITY);
        double[] util = result.utilisation().clone();
        Arrays.sort(client);
        return new Summary(result.policy(), outcomes.size(), ok, timeouts, errors, cut, noNode,
                percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.99),
                percentile(sorted, 0.999), percentile(all, 0.99), context == 0 ? 0.0 : (double) cached / context,
                util, mean(util), variance(util), shares(served), shares(decided),
                outcomes.isEmpty() ? 0.0 : cost / outcomes.size() * 1000, result.fallbacks(),
                percentile(client, 0.50), percentile(client, 0.99), retried, failedAfterRetry);
    }

    public static List<Window> timeline(Replay.Result result, double windowSeconds) {
        return timeline(result, windowSeconds, PolicyDocument.defaults());
    }

    public static List<Window> timeline(Replay.Result result, double windowSeconds, PolicyDocument policy) {
        int count = (int) Math.floor(result.horizon() / windowSeconds) + 1;
        List<List<Double>> ttfts = new ArrayList<>();
        List<List<Double>> clients = new ArrayList<>();
        int[] failed = new int[count];
        for (int i = 0; i < count; i++) {
            ttfts.add(new ArrayList<>());
            clients.add(new ArrayList<>());
        }
        for (Outcome o : result.outcomes()) {
            int w = Math.min(count - 1, Math.max(0, (int) Math.floor(o.arrival() / windowSeconds)));
            clients.get(w).add(clientTtft(o, result.retry(o.id()), policy));
            if (o.gotFirstToken()) {
                ttfts.get(w).add(o.ttft());
            }
            if (o.failed()) {
                failed[w]++;
            }
        }
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double[] sorted = ttfts.get(i).stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] client = clients.get(i).stream().mapToDouble(Double::doubleValue).sorted().toArray();
            windows.add(new Window(i * windowSeconds, sorted.length, failed[i], percentile(sorted, 0.5),
                    percentile(sorted, 0.99), percentile(client, 0.5), percentile(client, 0.9),
                    percentile(client, 0.99)));
        }
        return windows;
    }

    /** Nearest-rank percentile of sorted values; NaN for none. */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    public static double mean(double[] values) {
        return values.length == 0 ? 0.0 : Arrays.stream(values).sum() / values.length;
    }

    /** Population variance. */
    public static double variance(double[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        double mean = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - mean) * (v - mean);
        }
        return sum / values.length;
    }

    static Map<String, Double> shares(Map<String, Integer> counts) {
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        Map<String, Double> shares = new LinkedHashMap<>();
        for (String tier : TIERS) {
            shares.put(tier, total == 0 ? 0.0 : counts.getOrDefault(tier, 0) / (double) total);
        }
        return shares;
    }
}
