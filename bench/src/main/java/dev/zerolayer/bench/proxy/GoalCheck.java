package dev.zerolayer.bench.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The router's latency goal measured repeatedly: each repetition is a direct run and a router run back to back at the
 * goal rate; the goal is judged on the pooled p99 (every repetition's requests in one histogram per side, so the p99
 * rests on all of them, not on one window's few hundred slowest requests), and every repetition's own added p99 is
 * listed with it so that the spread between windows stays visible.
 */
public final class GoalCheck {

    /** The goal: router p99 minus direct p99, in milliseconds. */
    public static final double GOAL_ADDED_P99_MS = 2.0;

    /** One repetition of one mode: the direct run and the router run. */
    public record Pair(int repetition, boolean streaming, OpenLoopLoad.Result direct, OpenLoopLoad.Result router) {
        public double addedMs(double percentile) {
            return ProxyReport.ms(router.latencyMicros(), percentile) - ProxyReport.ms(direct.latencyMicros(),
                    percentile);
        }
    }

    /** A mode's pooled figures and how many repetitions met the goal on their own. */
    public record Pooled(boolean streaming, Histogram direct, Histogram router, int repetitions, int metAlone,
            double worstAddedP99, double bestAddedP99, long failed) {
        public double addedMs(double percentile) {
            return ProxyReport.ms(router, percentile) - ProxyReport.ms(direct, percentile);
        }

        public boolean met() {
            return failed == 0 && addedMs(99) <= GOAL_ADDED_P99_MS;
        }
    }

    private final List<Pair> pairs;

    public GoalCheck(List<Pair> pairs) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("no repetition measured");
        }
        this.pairs = List.copyOf(pairs);
    }

    public List<Pair> pairs() {
        return pairs;
    }

    public Pooled pooled(boolean streaming) {
        Histogram direct = new Histogram(3);
        Histogram router = new Histogram(3);
        int count = 0;
        int met = 0;
        long failed = 0;
        double worst = Double.NEGATIVE_INFINITY;
        double best = Double.POSITIVE_INFINITY;
        for (Pair pair : pairs) {
            if (pair.streaming() != streaming) {
                continue;
            }
            direct.add(pair.direct().latencyMicros());
            router.add(pair.router().latencyMicros());
            failed += pair.router().failed();
            count++;
            double added = pair.addedMs(99);
            if (added <= GOAL_ADDED_P99_MS) {
                met++;
            }
            worst = Math.max(worst, added);
            best = Math.min(best, added);
        }
        if (count == 0) {
            throw new IllegalArgumentException("no repetition measured in mode " + ProxyReport.mode(streaming));
        }
        return new Pooled(streaming, direct, router, count, met, worst, best, failed);
    }

    /** Every repetition, then the pooled rows and the verdict per mode, as markdown. */
    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("| repetition | mode | direct p50 / p99 ms | router p50 / p99 ms | added p50 ms | added p99 ms |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Pair p : pairs) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s / %s | %s / %s | %s | %s |%n", p.repetition(),
                    ProxyReport.mode(p.streaming()), ProxyReport.f(ProxyReport.ms(p.direct().latencyMicros(), 50)),
                    ProxyReport.f(ProxyReport.ms(p.direct().latencyMicros(), 99)),
                    ProxyReport.f(ProxyReport.ms(p.router().latencyMicros(), 50)),
                    ProxyReport.f(ProxyReport.ms(p.router().latencyMicros(), 99)), ProxyReport.f(p.addedMs(50)),
                    ProxyReport.f(p.addedMs(99))));
        }
        md.append("\n| mode | requests per side | direct p99 ms | router p99 ms | **pooled p99 added** | "
                + "repetitions ≤ 2 ms alone | added p99 range | router failures | goal ≤ 2 ms |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (boolean streaming : modes()) {
            Pooled p = pooled(streaming);
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | **%s ms** | %d of %d | %s to %s ms | %d | %s |%n",
                    ProxyReport.mode(streaming), p.router().getTotalCount(), ProxyReport.f(ProxyReport.ms(p.direct(),
                            99)), ProxyReport.f(ProxyReport.ms(p.router(), 99)), ProxyReport.f(p.addedMs(99)),
                    p.metAlone(), p.repetitions(), ProxyReport.f(p.bestAddedP99()),
                    ProxyReport.f(p.worstAddedP99()), p.failed(), p.met() ? "met"
                            : String.format(Locale.ROOT, "**missed** by %s ms", ProxyReport.f(p.addedMs(99)
                                    - GOAL_ADDED_P99_MS))));
        }
        return md.toString();
    }

    private List<Boolean> modes() {
        List<Boolean> modes = new ArrayList<>();
        for (Pair p : pairs) {
            if (!modes.contains(p.streaming())) {
                modes.add(p.streaming());
            }
        }
        return modes;
    }
}
