package dev.zerolayer.bench.proxy;

import dev.zerolayer.bench.replay.SvgChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The proxy-overhead results as tables, goal ratios and plots: added latency is a target's percentile minus the
 * direct call's at the same rate and mode; a target sustains a rate when its p99 is under the limit and at most
 * 0.1 % of its requests failed.
 */
public final class ProxyReport {

    /** p99 limit of "sustains a rate" (issue #10). */
    public static final double SUSTAIN_P99_MS = 50.0;
    /** Share of failed requests above which a rate is not sustained. */
    public static final double SUSTAIN_MAX_FAILED = 0.001;
    /** The rate of the absolute goal (router p99 added ≤ 2 ms at 1,000 requests/s). */
    public static final int GOAL_RATE = 1000;

    static final Map<String, String> COLOURS = Map.of("direct", "#444444", "zerolayer", "#d62728", "nginx",
            "#1f77b4", "portkey", "#9467bd");

    private final List<OpenLoopLoad.Result> results;

    public ProxyReport(List<OpenLoopLoad.Result> results) {
        this.results = List.copyOf(results);
    }

    public static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** True when the result meets the sustain rule. */
    public static boolean sustains(OpenLoopLoad.Result r) {
        return r.latencyMicros().getTotalCount() > 0 && ms(r.latencyMicros(), 99) < SUSTAIN_P99_MS
                && r.failed() <= SUSTAIN_MAX_FAILED * r.sent();
    }

    public Optional<OpenLoopLoad.Result> find(String target, int rate, boolean streaming) {
        return results.stream().filter(r -> r.target().equals(target) && r.rate() == rate
                && r.streaming() == streaming).findFirst();
    }

    /** Targets in first-seen order. */
    public List<String> targets() {
        Set<String> names = new LinkedHashSet<>();
        results.forEach(r -> names.add(r.target()));
        return List.copyOf(names);
    }

    public List<Integer> rates() {
        Set<Integer> rates = new TreeSet<>();
        results.forEach(r -> rates.add(r.rate()));
        return List.copyOf(rates);
    }

    /** Added latency at a percentile against direct at the same rate and mode; NaN when either is missing. */
    public double added(OpenLoopLoad.Result r, double percentile) {
        return find("direct", r.rate(), r.streaming())
                .map(base -> ms(r.latencyMicros(), percentile) - ms(base.latencyMicros(), percentile))
                .orElse(Double.NaN);
    }

    /** Highest rate of the ladder at which the target sustains (0 when none); the ladder stops at the first miss. */
    public int highestSustained(String target, boolean streaming) {
        int best = 0;
        for (int rate : rates()) {
            Optional<OpenLoopLoad.Result> r = find(target, rate, streaming);
            if (r.isEmpty() || !sustains(r.get())) {
                break;
            }
            best = rate;
        }
        return best;
    }

    /** Whether the ladder went above the highest sustained rate (otherwise the ceiling is at least that rate). */
    public boolean ladderCapped(String target, boolean streaming) {
        int best = highestSustained(target, streaming);
        return rates().stream().anyMatch(rate -> rate > best && find(target, rate, streaming).isPresent());
    }

    /** The full table: every cell with its percentiles, added latency and counts. */
    public String table() {
        StringBuilder t = new StringBuilder();
        t.append("| rate (req/s) | mode | target | p50 ms | p90 ms | p99 ms | p99.9 ms | added p50 ms | added p90 ms "
                + "| added p99 ms | added p99.9 ms | ok | failed | sustained (p99 < 50 ms) |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int rate : rates()) {
            for (boolean streaming : List.of(false, true)) {
                for (String target : targets()) {
                    find(target, rate, streaming).ifPresent(r -> t.append(row(r)).append('\n'));
                }
            }
        }
        return t.toString();
    }

    private String row(OpenLoopLoad.Result r) {
        Histogram h = r.latencyMicros();
        boolean base = r.target().equals("direct");
        return String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %s |",
                r.rate(), mode(r.streaming()), r.target(), f(ms(h, 50)), f(ms(h, 90)), f(ms(h, 99)), f(ms(h, 99.9)),
                base ? "–" : f(added(r, 50)), base ? "–" : f(added(r, 90)), base ? "–" : f(added(r, 99)),
                base ? "–" : f(added(r, 99.9)), r.ok(), r.failed(), sustains(r) ? "yes" : "**no**");
    }

    static String mode(boolean streaming) {
        return streaming ? "stream (TTFB)" : "non-stream";
    }

    /** Highest sustained rate per target and mode. */
    public String ladder() {
        StringBuilder t = new StringBuilder("| target | non-stream: highest rate with p99 < 50 ms | stream (TTFB): "
                + "highest rate with p99 < 50 ms |\n|---|---|---|\n");
        for (String target : targets()) {
            t.append("| ").append(target);
            for (boolean streaming : List.of(false, true)) {
                int best = highestSustained(target, streaming);
                String cell = best == 0 ? "none of the ladder (" + rates().get(0) + " missed)"
                        : String.format(Locale.ROOT, "%,d req/s", best)
                                + (ladderCapped(target, streaming) ? "" : " (the ladder's top; not reached)");
                t.append(" | ").append(cell);
            }
            t.append(" |\n");
        }
        return t.toString();
    }

    /** A goal of issue #10 with its measured value. */
    public record Goal(String name, String measured, String target, String verdict) {
    }

    /** The three proxy goals, per mode, with measured ratios and how far a missed one is off. */
    public List<Goal> goals() {
        List<Goal> goals = new ArrayList<>();
        for (boolean streaming : List.of(false, true)) {
            String m = mode(streaming);
            Optional<OpenLoopLoad.Result> router = find("zerolayer", GOAL_RATE, streaming);
            if (router.isEmpty()) {
                goals.add(new Goal("router p99 added at 1,000 req/s, " + m, "not measured (1,000 not in the "
                        + "ladder or the router dropped out below it)", "≤ 2 ms", "**not measured**"));
            } else {
                double added = added(router.get(), 99);
                goals.add(new Goal("router p99 added at 1,000 req/s, " + m, f(added) + " ms", "≤ 2 ms",
                        added <= 2.0 ? "met" : String.format(Locale.ROOT, "**missed** by %s ms (%.1f×)",
                                f(added - 2.0), added / 2.0)));
            }
            Optional<OpenLoopLoad.Result> nginx = find("nginx", GOAL_RATE, streaming);
            if (router.isPresent() && nginx.isPresent()) {
                double zr = added(router.get(), 99);
                double ng = added(nginx.get(), 99);
                if (ng < 0.01) {
                    // nginx's p99 at or below direct's: its overhead is inside the run's noise, a ratio means nothing
                    goals.add(new Goal("router / nginx p99 added at 1,000 req/s, " + m, String.format(Locale.ROOT,
                            "undefined: nginx added %s ms (at or below direct's p99: noise), router added %s ms",
                            f(ng), f(zr)), "≤ 2×", zr <= 0.02 ? "met (both within noise)"
                                    : "**missed**: router adds " + f(zr) + " ms where nginx adds nothing measurable"));
                } else {
                    double ratio = zr / ng;
                    goals.add(new Goal("router / nginx p99 added at 1,000 req/s, " + m, String.format(Locale.ROOT,
                            "%.1f× (%s ms / %s ms)", ratio, f(zr), f(ng)), "≤ 2×", ratio <= 2.0 ? "met"
                                    : String.format(Locale.ROOT, "**missed** by %.1f× (%s ms more than 2× nginx)",
                                            ratio / 2.0, f(zr - 2 * ng))));
                }
            } else {
                goals.add(new Goal("router / nginx p99 added at 1,000 req/s, " + m, "not measured", "≤ 2×",
                        "**not measured**"));
            }
            List<String> worse = new ArrayList<>();
            List<String> compared = new ArrayList<>();
            for (int rate : rates()) {
                Optional<OpenLoopLoad.Result> zr = find("zerolayer", rate, streaming);
                Optional<OpenLoopLoad.Result> pk = find("portkey", rate, streaming);
                if (zr.isPresent() && pk.isPresent()) {
                    double a = ms(zr.get().latencyMicros(), 99);
                    double b = ms(pk.get().latencyMicros(), 99);
                    compared.add(Double.isNaN(a) || Double.isNaN(b) ? rate + ": no successful request on one side"
                            : String.format(Locale.ROOT, "%d: %.2f×", rate, a / b));
                    if (!(a < b)) {
                        worse.add(String.format(Locale.ROOT, "%d req/s (%s vs %s ms)", rate, f(a), f(b)));
                    }
                } else if (zr.isPresent() && find("portkey", rates().get(0), streaming).isPresent()) {
                    compared.add(rate + ": portkey dropped out");
                } else if (pk.isPresent()) {
                    worse.add(rate + " req/s (router dropped out, portkey still ran)");
                }
            }
            if (compared.isEmpty()) {
                goals.add(new Goal("router p99 < portkey p99 at every rate, " + m, "not measured", "< 1× at every rate",
                        "**not measured**"));
            } else {
                goals.add(new Goal("router p99 < portkey p99 at every rate, " + m, "router / portkey p99 per rate: "
                        + String.join(", ", compared), "< 1× at every rate", worse.isEmpty() ? "met"
                                : "**missed** at " + String.join("; ", worse)));
            }
        }
        return goals;
    }

    public String goalTable() {
        StringBuilder t = new StringBuilder("| goal (issue #10) | measured | target | |\n|---|---|---|---|\n");
        for (Goal g : goals()) {
            t.append("| ").append(g.name()).append(" | ").append(g.measured()).append(" | ").append(g.target())
                    .append(" | ").append(g.verdict()).append(" |\n");
        }
        return t.toString();
    }

    /** Every cell as CSV (latencies in ms). */
    public String csv() {
        StringBuilder csv = new StringBuilder("rate,mode,target,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,added_p50_ms,"
                + "added_p90_ms,added_p99_ms,added_p999_ms,sent,ok,failed,late,sustained\n");
        for (int rate : rates()) {
            for (boolean streaming : List.of(false, true)) {
                for (String target : targets()) {
                    find(target, rate, streaming).ifPresent(r -> {
                        Histogram h = r.latencyMicros();
                        csv.append(String.format(Locale.ROOT, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d,%b%n",
                                rate, streaming ? "stream" : "non-stream", target, f(ms(h, 50)), f(ms(h, 90)),
                                f(ms(h, 99)), f(ms(h, 99.9)), f(h.getMaxValue() / 1000.0), f(added(r, 50)),
                                f(added(r, 90)), f(added(r, 99)), f(added(r, 99.9)), r.sent(), r.ok(), r.failed(),
                                r.late(), sustains(r)));
                    });
                }
            }
        }
        return csv.toString();
    }

    /** The latency CDF of every target at one rate and mode (x: latency, log; y: share of requests). */
    public String cdf(int rate, boolean streaming) {
        SvgChart chart = new SvgChart(String.format(Locale.ROOT, "Latency CDF, %,d req/s open-loop, %s", rate,
                        streaming ? "streaming (first byte)" : "non-streaming (whole body)"), "latency (ms, log)",
                "share of requests", true, false)
                .yRange(0, 1);
        for (String target : targets()) {
            find(target, rate, streaming).ifPresent(r -> {
                double[][] xy = cdfPoints(r.latencyMicros());
                chart.add(new SvgChart.Series(target, COLOURS.getOrDefault(target, "#ff7f0e"), xy[0], xy[1]));
            });
        }
        return chart.render();
    }

    /** The tail of the same distributions: share of requests slower than x (log–log), where p99 and p99.9 show. */
    public String tail(int rate, boolean streaming) {
        SvgChart chart = new SvgChart(String.format(Locale.ROOT, "Latency tail at %,d req/s, %s: share of requests "
                        + "slower than x", rate, streaming ? "streaming TTFB" : "non-streaming"), "latency (ms, log)",
                "share slower (log)", true, true);
        for (String target : targets()) {
            find(target, rate, streaming).ifPresent(r -> {
                double[][] xy = cdfPoints(r.latencyMicros());
                double[] y = new double[xy[1].length];
                for (int i = 0; i < y.length; i++) {
                    y[i] = 1 - xy[1][i];
                }
                chart.add(new SvgChart.Series(target, COLOURS.getOrDefault(target, "#ff7f0e"), xy[0], y));
            });
        }
        return chart.render();
    }

    /** p99 against rate per target, with the 50 ms line: where each one stops sustaining. */
    public String ladderChart(boolean streaming) {
        SvgChart chart = new SvgChart("p99 latency by request rate, " + (streaming ? "streaming (TTFB)"
                : "non-streaming") + "; dashed: 50 ms", "requests/s", "p99 (ms, log)", false, true);
        List<Integer> rates = rates();
        for (String target : targets()) {
            double[] x = new double[rates.size()];
            double[] y = new double[rates.size()];
            for (int i = 0; i < rates.size(); i++) {
                x[i] = rates.get(i);
                Optional<OpenLoopLoad.Result> r = find(target, rates.get(i), streaming);
                y[i] = r.map(res -> ms(res.latencyMicros(), 99)).orElse(Double.NaN);
            }
            chart.add(new SvgChart.Series(target, COLOURS.getOrDefault(target, "#ff7f0e"), x, y));
        }
        if (!rates.isEmpty()) {
            chart.add(new SvgChart.Series("50 ms", "#999999", new double[] {0, rates.get(rates.size() - 1)},
                    new double[] {SUSTAIN_P99_MS, SUSTAIN_P99_MS}, true));
            chart.xRange(0, rates.get(rates.size() - 1));
        }
        return chart.render();
    }

    static double[][] cdfPoints(Histogram h) {
        List<double[]> points = new ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(8)) {
            points.add(new double[] {v.getValueIteratedTo() / 1000.0, v.getPercentileLevelIteratedTo() / 100.0});
        }
        double[][] xy = new double[2][points.size()];
        for (int i = 0; i < points.size(); i++) {
            xy[0][i] = Math.max(points.get(i)[0], 0.001);
            xy[1][i] = points.get(i)[1];
        }
        return xy;
    }

    /** Writes results.csv, the CDF and tail plots per rate and mode, and the ladder plots into {@code dir}. */
    public Map<String, Path> writePlots(Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Path> written = new LinkedHashMap<>();
        Files.writeString(dir.resolve("results.csv"), csv(), StandardCharsets.UTF_8);
        for (int rate : rates()) {
            for (boolean streaming : List.of(false, true)) {
                if (results.stream().noneMatch(r -> r.rate() == rate && r.streaming() == streaming)) {
                    continue;
                }
                String suffix = (streaming ? "stream" : "nonstream") + "-" + rate;
                written.put("cdf-" + suffix, write(dir.resolve("cdf-" + suffix + ".svg"), cdf(rate, streaming)));
                written.put("tail-" + suffix, write(dir.resolve("tail-" + suffix + ".svg"), tail(rate, streaming)));
            }
        }
        written.put("ladder-nonstream", write(dir.resolve("ladder-nonstream.svg"), ladderChart(false)));
        written.put("ladder-stream", write(dir.resolve("ladder-stream.svg"), ladderChart(true)));
        return written;
    }

    private static Path write(Path file, String svg) throws IOException {
        Files.writeString(file, svg, StandardCharsets.UTF_8);
        return file;
    }

    static String f(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }
}
