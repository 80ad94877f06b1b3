package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongFunction;

/**
 * Replays the Azure LLM inference trace 2023 through four routing policies on identical traffic and faults —
 * round-robin, least-busy, SGLang-style cache-aware and ZeroLayer's decision engine — in two scenarios (a fleet sized
 * by {@link FleetSizing}'s rule, and node-simulator's default fleet, overloaded by this trace) and writes per scenario
 * the results (JSON, CSV, per-window timeline), two SVG plots and a combined Markdown report. Usage: {@code
 * TraceReplay [--seed 42] [--out docs/bench/replay] [--trace <dir>] [--prompts <dir>] [--limit <rows per file>]
 * [--window 30] [--faults standard|none] [--scenarios sized,overloaded]}.
 */
public final class TraceReplay {

    /** The policies in report order, built fresh per run. */
    static final List<LongFunction<RoutingPolicy>> POLICIES = List.of(
            seed -> new RoundRobinPolicy(),
            LeastBusyPolicy::new,
            seed -> new CacheAwarePolicy(),
            seed -> new ZeroLayerPolicy());

    static final Map<String, String> COLOURS = Map.of("round-robin", "#1f77b4", "least-busy", "#2ca02c",
            "cache-aware", "#9467bd", "zerolayer", "#d62728");

    /** One fleet to replay on: name, how it was chosen, the fleet and the workload's templates per source. */
    public record Scenario(String name, String description, FleetSpec fleet, int templatesPerSource) {

        /** A scenario whose template count follows {@link Workload#templatesFor}. */
        public static Scenario of(String name, String description, FleetSpec fleet) {
            return new Scenario(name, description, fleet, Workload.templatesFor(fleet));
        }
    }

    /** A whole comparison: the workload, the faults, each policy's run and summary. */
    public record Report(long seed, Scenario scenario, String complexity, int requests, double horizon,
            FaultScript faults, List<Replay.Result> results, List<Metrics.Summary> summaries, double wallSeconds) {

        public Metrics.Summary summary(String policy) {
            return summaries.stream().filter(s -> s.policy().equals(policy)).findFirst().orElseThrow();
        }

        public Replay.Result result(String policy) {
            return results.stream().filter(r -> r.policy().equals(policy)).findFirst().orElseThrow();
        }
    }

    private TraceReplay() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> options = parse(args);
        long seed = Long.parseLong(options.getOrDefault("seed", "42"));
        Path out = Path.of(options.getOrDefault("out", "docs/bench/replay"));
        Path trace = options.containsKey("trace") ? Path.of(options.get("trace")) : defaultTrace();
        Path prompts = options.containsKey("prompts") ? Path.of(options.get("prompts"))
                : ComplexitySource.defaultDir();
        int limit = Integer.parseInt(options.getOrDefault("limit", "0"));
        double window = Double.parseDouble(options.getOrDefault("window", "30"));
        FaultScript faults = switch (options.getOrDefault("faults", "standard")) {
            case "standard" -> FaultScript.standard();
            case "none" -> FaultScript.none();
            default -> throw new IllegalArgumentException("--faults must be standard or none");
        };
        List<String> wanted = List.of(options.getOrDefault("scenarios", "sized,overloaded").split(","));
        List<TraceRequest> rows = AzureTrace.load(trace, limit);
        System.out.printf(Locale.ROOT, "trace %s: %d rows, %.0f s; seed %d%n", trace, rows.size(),
                rows.isEmpty() ? 0.0 : rows.get(rows.size() - 1).arrivalSeconds(), seed);
        ComplexitySource complexity = ComplexitySource.fromPrompts(prompts);
        System.out.println("complexity: " + complexity.description());
        FleetSizing.Sizing sizing = sizing(rows, faults, seed, complexity);
        System.out.println("sizing: " + sizing.describe());
        StringBuilder md = new StringBuilder();
        md.append("complexity: ").append(complexity.description()).append("\n\n");
        md.append("sizing rule result: ").append(sizing.describe()).append("\n\n");
        for (Scenario scenario : scenarios(sizing)) {
            if (!wanted.contains(scenario.name())) {
                continue;
            }
            Report report = run(rows, faults, seed, complexity, scenario);
            write(report, out.resolve(scenario.name()), window);
            String text = markdown(report, sizing);
            md.append(text).append('\n');
            System.out.print(text);
            System.out.printf(Locale.ROOT, "wrote %s (%.1f s)%n", out.resolve(scenario.name()), report.wallSeconds());
        }
        Files.writeString(out.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
    }

    /** The sizing rule applied to this trace, complexity source and seed (templates do not affect it). */
    public static FleetSizing.Sizing sizing(List<TraceRequest> rows, FaultScript faults, long seed,
            ComplexitySource complexity) {
        List<SimRequest> requests = new Workload(seed, complexity, 1).build(rows, faults.spikeWindows());
        return FleetSizing.size(requests, PolicyDocument.defaults());
    }

    /** The two scenarios: the sized fleet, then node-simulator's default fleet. */
    public static List<Scenario> scenarios(FleetSizing.Sizing sizing) {
        return List.of(
                Scenario.of("sized", "fleet sized for the trace: mean offered work <= "
                        + (int) Math.round(100 * FleetSizing.TARGET) + " % of each tier's capacity", sizing.fleet()),
                Scenario.of("overloaded", "node-simulator's default fleet (8 nodes)", FleetSpec.simulatorDefault()));
    }

    /** The first pass's run: default fleet with 100 templates per source and the formula complexity. */
    public static Report run(List<TraceRequest> rows, FaultScript faults, long seed) {
        return run(rows, faults, seed, ComplexitySource.formula(null),
                new Scenario("overloaded", "node-simulator's default fleet", FleetSpec.simulatorDefault(),
                        Workload.TEMPLATES));
    }

    /** Runs every policy over the same workload, built once from the trace rows, the faults and the seed. */
    public static Report run(List<TraceRequest> rows, FaultScript faults, long seed, ComplexitySource complexity,
            Scenario scenario) {
        long started = System.nanoTime();
        List<SimRequest> requests = new Workload(seed, complexity, scenario.templatesPerSource())
                .build(rows, faults.spikeWindows());
        PolicyDocument policy = PolicyDocument.defaults();
        Replay replay = new Replay(policy, scenario.fleet(), faults, seed);
        List<Replay.Result> results = new ArrayList<>();
        List<Metrics.Summary> summaries = new ArrayList<>();
        for (LongFunction<RoutingPolicy> factory : POLICIES) {
            Replay.Result result = replay.run(factory.apply(seed), requests);
            results.add(result);
            summaries.add(Metrics.summarise(result, Pricing.listPrices(), policy));
        }
        double horizon = requests.isEmpty() ? 0 : requests.get(requests.size() - 1).arrival();
        return new Report(seed, scenario, complexity.description(), requests.size(), horizon, faults, results,
                summaries, (System.nanoTime() - started) / 1e9);
    }

    static Path defaultTrace() {
        for (Path base : new Path[] {Path.of(""), Path.of("..")}) {
            Path candidate = base.resolve("../shared/data/azure-llm-trace-2023").toAbsolutePath().normalize();
            if (Files.isRegularFile(candidate.resolve(AzureTrace.CODE_FILE))) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("trace not found at ../shared/data/azure-llm-trace-2023; pass --trace");
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + Arrays.toString(args));
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    /** The goals of issue #10 as measured ratios: name, measured, goal, whether met and by how much it is missed. */
    public record Goal(String name, double measured, double goal, boolean lowerIsBetter) {
        public boolean met() {
            return lowerIsBetter ? measured <= goal : measured >= goal;
        }

        /** How far from the target, as a factor (1 when met): measured / goal or goal / measured. */
        public double missFactor() {
            if (met()) {
                return 1.0;
            }
            return lowerIsBetter ? measured / goal : goal / measured;
        }
    }

    /**
     * The goals on metrics defined for every policy: p99 of the client TTFT (failures charged per
     * {@link Metrics#clientTtft}), cache hit rate and utilisation variance.
     */
    public static List<Goal> goals(Report report) {
        Metrics.Summary zl = report.summary("zerolayer");
        Metrics.Summary rr = report.summary("round-robin");
        Metrics.Summary lb = report.summary("least-busy");
        return List.of(
                new Goal("p99 client TTFT zerolayer / round-robin", zl.clientTtftP99() / rr.clientTtftP99(), 0.3,
                        true),
                new Goal("p99 client TTFT zerolayer / least-busy", zl.clientTtftP99() / lb.clientTtftP99(), 0.5,
                        true),
                new Goal("cache hit rate zerolayer / round-robin", zl.cacheHitRate() / rr.cacheHitRate(), 3.0, false),
                new Goal("utilisation variance zerolayer / round-robin", zl.utilVariance() / rr.utilVariance(), 0.3,
                        true));
    }

    static void write(Report report, Path out, double window) throws IOException {
        Files.createDirectories(out);
        PolicyDocument policy = PolicyDocument.defaults();
        Files.writeString(out.resolve("results.csv"), csv(report), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("results.json"), json(report), StandardCharsets.UTF_8);
        StringBuilder timeline = new StringBuilder(
                "policy,window_start_s,served,failed,ttft_p50_s,ttft_p99_s,client_ttft_p99_s\n");
        SvgChart p99 = new SvgChart("[" + report.scenario().name() + "] client TTFT p99 per " + (int) window
                + " s window (by arrival; failures charged, one retry)", "trace time (minutes)",
                "p99 client TTFT (s, log)", false, true);
        for (Replay.Result result : report.results()) {
            List<Metrics.Window> windows = Metrics.timeline(result, window, policy);
            double[] x = new double[windows.size()];
            double[] y = new double[windows.size()];
            for (int i = 0; i < windows.size(); i++) {
                Metrics.Window w = windows.get(i);
                x[i] = (w.start() + window / 2) / 60;
                y[i] = w.clientP99();
                timeline.append(String.format(Locale.ROOT, "%s,%.0f,%d,%d,%s,%s,%s%n", result.policy(), w.start(),
                        w.served(), w.failed(), num(w.p50()), num(w.p99()), num(w.clientP99())));
            }
            p99.add(new SvgChart.Series(result.policy(), COLOURS.get(result.policy()), x, y));
        }
        for (FaultScript.Fault fault : report.faults().faults()) {
            p99.band(new SvgChart.Band(fault.start() / 60, fault.end() / 60, fault.label()));
        }
        p99.xRange(0, report.horizon() / 60);
        Files.writeString(out.resolve("timeline.csv"), timeline.toString(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("ttft-p99-timeline.svg"), p99.render(), StandardCharsets.UTF_8);
        SvgChart cdf = new SvgChart("[" + report.scenario().name() + "] client TTFT CDF over all requests "
                + "(failures charged, one retry)", "client TTFT (s, log)", "share of requests", true, false)
                .yRange(0, 1);
        for (Replay.Result result : report.results()) {
            double[] ttfts = result.outcomes().stream()
                    .mapToDouble(o -> Metrics.clientTtft(o, result.retry(o.id()), policy)).sorted().toArray();
            int points = Math.min(ttfts.length, 600);
            double[] x = new double[points];
            double[] y = new double[points];
            for (int i = 0; i < points; i++) {
                int rank = (int) Math.round((i + 1) * (double) ttfts.length / points);
                x[i] = ttfts[rank - 1];
                y[i] = rank / (double) ttfts.length;
            }
            cdf.add(new SvgChart.Series(result.policy(), COLOURS.get(result.policy()), x, y));
        }
        Files.writeString(out.resolve("ttft-cdf.svg"), cdf.render(), StandardCharsets.UTF_8);
    }

    static String csv(Report report) {
        StringBuilder csv = new StringBuilder("scenario,policy,requests,ok,timeouts,errors,cut,no_node,failed,"
                + "failure_rate,retried,failed_after_retry,ttft_p50_s,ttft_p90_s,ttft_p99_s,ttft_p999_s,"
                + "ttft_p99_all_requests_s,client_ttft_p50_s,client_ttft_p99_s,cache_hit_rate,util_mean,util_variance,"
                + "util_std,served_haiku,served_sonnet,served_opus,cost_per_1000_usd\n");
        for (Metrics.Summary s : report.summaries()) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%.5f,%d,%d,%s,%s,%s,%s,%s,%s,%s,%.4f,"
                    + "%.4f,%.6f,%.4f,%.4f,%.4f,%.4f,%.4f%n", report.scenario().name(), s.policy(), s.requests(),
                    s.ok(), s.timeouts(), s.errors(), s.cut(), s.noNode(), s.failed(), s.failureRate(), s.retried(),
                    s.failedAfterRetry(), num(s.ttftP50()), num(s.ttftP90()), num(s.ttftP99()), num(s.ttftP999()),
                    infinite(s.ttftP99AllRequests()), num(s.clientTtftP50()), num(s.clientTtftP99()),
                    s.cacheHitRate(), s.utilMean(), s.utilVariance(), s.utilStd(), s.servedTierMix().get("haiku"),
                    s.servedTierMix().get("sonnet"), s.servedTierMix().get("opus"), s.costPer1000()));
        }
        return csv.toString();
    }

    static String json(Report report) {
        StringBuilder j = new StringBuilder("{\n");
        j.append(String.format(Locale.ROOT, "  \"seed\": %d,%n  \"scenario\": \"%s\",%n  \"scenarioDescription\": "
                + "\"%s\",%n  \"fleet\": %s,%n  \"templatesPerSource\": %d,%n  \"complexity\": \"%s\",%n"
                + "  \"requests\": %d,%n  \"horizonSeconds\": %.3f,%n", report.seed(), report.scenario().name(),
                report.scenario().description(), fleetJson(report.scenario().fleet()),
                report.scenario().templatesPerSource(), report.complexity().replace("\"", "'"), report.requests(),
                report.horizon()));
        StringJoiner faults = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (FaultScript.Fault f : report.faults().faults()) {
            faults.add(String.format(Locale.ROOT, "{\"type\": \"%s\", \"node\": %s, \"start\": %.1f, \"duration\": %.1f}",
                    f.type().wireName(), f.node() == null ? "null" : "\"" + f.node() + "\"", f.start(), f.duration()));
        }
        j.append("  \"faults\": ").append(report.faults().faults().isEmpty() ? "[]" : faults.toString()).append(",\n");
        StringJoiner policies = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (int p = 0; p < report.summaries().size(); p++) {
            Metrics.Summary s = report.summaries().get(p);
            Replay.Result r = report.results().get(p);
            StringJoiner util = new StringJoiner(", ", "{", "}");
            for (int i = 0; i < r.nodeIds().size(); i++) {
                util.add(String.format(Locale.ROOT, "\"%s\": %.4f", r.nodeIds().get(i), s.utilisation()[i]));
            }
            policies.add(String.format(Locale.ROOT, "{\"policy\": \"%s\", \"requests\": %d, \"ok\": %d, "
                    + "\"timeouts\": %d, \"errors\": %d, \"cut\": %d, \"noNode\": %d, \"failureRate\": %.5f, "
                    + "\"retried\": %d, \"failedAfterRetry\": %d, \"ttftP50\": %s, "
                    + "\"ttftP90\": %s, \"ttftP99\": %s, \"ttftP999\": %s, \"ttftP99AllRequests\": %s, "
                    + "\"clientTtftP50\": %s, \"clientTtftP99\": %s, \"cacheHitRate\": %.4f, "
                    + "\"utilisation\": %s, \"utilMean\": %.4f, \"utilVariance\": %.6f, \"servedTierMix\": %s, "
                    + "\"decidedTierMix\": %s, \"costPer1000Usd\": %.4f, \"fallbacks\": %s, \"events\": %d}",
                    s.policy(), s.requests(), s.ok(), s.timeouts(), s.errors(), s.cut(), s.noNode(), s.failureRate(),
                    s.retried(), s.failedAfterRetry(), num(s.ttftP50()), num(s.ttftP90()), num(s.ttftP99()),
                    num(s.ttftP999()), jsonInfinite(s.ttftP99AllRequests()), num(s.clientTtftP50()),
                    num(s.clientTtftP99()), s.cacheHitRate(), util, s.utilMean(), s.utilVariance(),
                    mix(s.servedTierMix()), mix(s.decidedTierMix()), s.costPer1000(), counts(s.fallbacks()),
                    r.events()));
        }
        j.append("  \"policies\": ").append(policies).append(",\n");
        StringJoiner goals = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (Goal g : goals(report)) {
            goals.add(String.format(Locale.ROOT, "{\"goal\": \"%s\", \"measured\": %s, \"target\": %.2f, "
                    + "\"lowerIsBetter\": %b, \"met\": %b, \"missFactor\": %s}", g.name(), num(g.measured()),
                    g.goal(), g.lowerIsBetter(), g.met(), num(g.missFactor())));
        }
        j.append("  \"goals\": ").append(goals).append("\n}\n");
        return j.toString();
    }

    private static String fleetJson(FleetSpec fleet) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (FleetSpec.Member m : fleet.members()) {
            counts.merge(m.cluster(), 1, Integer::sum);
        }
        counts.forEach((k, v) -> j.add("\"" + k + "\": " + v));
        return j.toString();
    }

    static String markdown(Report report) {
        return markdown(report, null);
    }

    static String markdown(Report report, FleetSizing.Sizing sizing) {
        StringBuilder md = new StringBuilder();
        FleetSpec fleet = report.scenario().fleet();
        md.append(String.format(Locale.ROOT, "#### Scenario `%s`: %s — %d opus + %d sonnet (+1 standby) + %d haiku "
                + "nodes, %d templates per source, %,d requests%n%n", report.scenario().name(),
                report.scenario().description(), fleet.primaryCount("opus"), fleet.primaryCount("sonnet"),
                fleet.primaryCount("haiku"), report.scenario().templatesPerSource(), report.requests()));
        if (sizing != null) {
            StringJoiner loads = new StringJoiner(", ");
            for (FleetSizing.Tier t : sizing.tiers()) {
                loads.add(String.format(Locale.ROOT, "%s %.0f %%", t.tier(),
                        100 * t.offeredNodeSeconds() / fleet.primaryCount(t.tier())));
            }
            md.append("Mean offered work / primary capacity: ").append(loads).append("\n\n");
        }
        md.append("| policy | p50 client TTFT | **p99 client TTFT** | p99 TTFT served (first try) | "
                + "p99 TTFT all (failed = ∞) | failed first try | failed after retry | cache hit (tokens) "
                + "| util mean | util variance (std) | served haiku / sonnet / opus | $ per 1,000 req |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Metrics.Summary s : report.summaries()) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %,d (%.2f %%: %d timeout, %d error, "
                    + "%d cut, %d no node) | %,d (%.2f %%) | %.1f %% | %.1f %% | %.4f (%.1f pp) | %.1f / %.1f / %.1f %% "
                    + "| %.2f |%n", s.policy(), seconds(s.clientTtftP50()), seconds(s.clientTtftP99()),
                    seconds(s.ttftP99()), seconds(s.ttftP99AllRequests()), s.failed(), 100 * s.failureRate(),
                    s.timeouts(), s.errors(), s.cut(), s.noNode(), s.failedAfterRetry(),
                    100.0 * s.failedAfterRetry() / Math.max(1, s.requests()), 100 * s.cacheHitRate(),
                    100 * s.utilMean(), s.utilVariance(), 100 * s.utilStd(), 100 * s.servedTierMix().get("haiku"),
                    100 * s.servedTierMix().get("sonnet"), 100 * s.servedTierMix().get("opus"), s.costPer1000()));
        }
        md.append("\n| goal | measured | target | |\n|---|---|---|---|\n");
        for (Goal g : goals(report)) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s %.1f× | %s |%n", g.name(), ratio(g.measured()),
                    g.lowerIsBetter() ? "≤" : "≥", g.goal(), g.met() ? "met"
                            : String.format(Locale.ROOT, "**missed** by %.2f×", g.missFactor())));
        }
        Metrics.Summary zl = report.summary("zerolayer");
        if (!zl.fallbacks().isEmpty()) {
            md.append("\nZeroLayer fallbacks: ").append(counts(zl.fallbacks())).append('\n');
        }
        return md.toString();
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "undefined (∞/∞)" : String.format(Locale.ROOT, "%.2f×", r);
    }

    private static String seconds(double s) {
        if (Double.isNaN(s)) {
            return "–";
        }
        if (Double.isInfinite(s)) {
            return "∞";
        }
        return s < 1 ? String.format(Locale.ROOT, "%.0f ms", s * 1000) : String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String infinite(double v) {
        return Double.isInfinite(v) ? "inf" : num(v);
    }

    private static String jsonInfinite(double v) {
        return Double.isInfinite(v) ? "\"infinity\"" : num(v);
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "null";
    }

    private static String mix(Map<String, Double> shares) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        shares.forEach((k, v) -> j.add(String.format(Locale.ROOT, "\"%s\": %.4f", k, v)));
        return j.toString();
    }

    private static String counts(Map<String, Integer> counts) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> j.add(String.format(Locale.ROOT, "\"%s\": %d", e.getKey(), e.getValue())));
        return j.toString();
    }
}
