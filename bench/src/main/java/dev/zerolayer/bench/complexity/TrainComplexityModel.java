package dev.zerolayer.bench.complexity;

import dev.zerolayer.bench.complexity.PromptData.Split;
import dev.zerolayer.bench.complexity.RoutingMetrics.Result;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fits the complexity model on a seeded split of the RouteLLM GSM8K and MMLU samples (plus the calibration anchors)
 * and reports AUC, APGR, CPT50 and CPT80 on the held-out part against a random router; deterministic.
 *
 * <p>Run from the project root (routing-core installed first):
 * <pre>
 * ./mvnw -B -o -q install -pl routing-core -DskipTests
 * ./mvnw -B -o -q -pl bench compile exec:java                                  # fit + evaluate
 * ./mvnw -B -o -q -pl bench compile exec:java -Dexec.args="--install"          # ... and install as the default model
 * </pre>
 * Options: {@code --data DIR} (default {@code ../shared/data/prompts} beside the project), {@code --install},
 * {@code --anchor-weight W} and {@code --l2 L} (defaults: the constants below; for experiments only).
 * Writes {@code bench/target/complexity-eval.md} and {@code bench/target/complexity-model.json}.
 */
public final class TrainComplexityModel {

    static final long SEED = 20_260_101L;
    static final double TRAIN_SHARE = 0.6;
    static final double ANCHOR_WEIGHT = 3.0;
    static final double L2 = 0.002;
    private static double anchorWeight = ANCHOR_WEIGHT;
    private static double l2 = L2;
    static final int ITERATIONS = 4_000;
    static final double LEARNING_RATE = 0.5;
    static final int RANDOM_ROUNDS = 2_000;
    static final String MODEL_RESOURCE = "routing-core/src/main/resources/complexity-model-lexical.json";

    private TrainComplexityModel() {
    }

    public static void main(String[] args) throws IOException {
        Path data = null;
        boolean install = false;
        boolean crossValidate = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Path.of(args[++i]);
                case "--install" -> install = true;
                case "--cv" -> crossValidate = true;
                case "--anchor-weight" -> anchorWeight = Double.parseDouble(args[++i]);
                case "--l2" -> l2 = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path root = projectRoot();
        if (data == null) {
            data = root.resolve("../shared/data/prompts").normalize();
        }
        String report = crossValidate ? crossValidate(data) : run(data, root, install);
        System.out.println(report);
    }

    static String run(Path data, Path root, boolean install) throws IOException {
        List<LabelledPrompt> gsm8k = PromptData.labelled(data, PromptData.GSM8K, "gsm8k");
        List<LabelledPrompt> mmlu = PromptData.labelled(data, PromptData.MMLU, "mmlu");
        Split gsmSplit = PromptData.split(gsm8k, TRAIN_SHARE, SEED);
        Split mmluSplit = PromptData.split(mmlu, TRAIN_SHARE, SEED + 1);
        List<LabelledPrompt> train = concat(gsmSplit.train(), mmluSplit.train());
        Map<String, List<LabelledPrompt>> evalSets = new LinkedHashMap<>();
        evalSets.put("gsm8k", gsmSplit.eval());
        evalSets.put("mmlu", mmluSplit.eval());
        evalSets.put("overall", concat(gsmSplit.eval(), mmluSplit.eval()));
        Anchors anchors = Anchors.load();

        double[][] trainX = features(train);
        boolean[] trainY = labels(train);
        double[][] anchorX = anchors.all().stream().map(a -> ComplexityScorer.features(a.conversation()))
                .toArray(double[][]::new);
        double[] anchorT = anchors.all().stream().mapToDouble(Anchors.Anchor::target).toArray();

        LogisticFit.Fitted fitted = LogisticFit.ranking(trainX, trainY, anchorX, anchorT, anchorWeight, l2,
                prior(), directions(), ITERATIONS, LEARNING_RATE);
        LogisticFit.Fitted pointwise = LogisticFit.pointwise(trainX, trainY, l2, ITERATIONS, LEARNING_RATE);
        String json = modelJson(fitted);
        ComplexityModel model = ComplexityModels.fromJson(json.getBytes(StandardCharsets.UTF_8));
        ComplexityScorer scorer = ComplexityScorer.withModel(model);

        StringBuilder md = new StringBuilder();
        md.append("# Complexity model: fit and held-out evaluation\n\n");
        md.append(String.format(Locale.ROOT, "Model `%s` (%d features, intercept %.4f). Split seed %d, train share "
                + "%.0f %% per dataset and label; train %d (gsm8k %d, mmlu %d) + %d anchors; eval %d (gsm8k %d, mmlu "
                + "%d). Fit: pairwise logistic + anchor soft labels (weight %.1f), L2 %.4f, %d GD steps, final loss %.5f, "
                + "|grad| %.2e. Random router: mean of %d seeded shuffles.%n%n", model.modelVersion(),
                model.weights().size(), model.intercept(), SEED, TRAIN_SHARE * 100, train.size(),
                gsmSplit.train().size(), mmluSplit.train().size(), anchors.all().size(),
                evalSets.get("overall").size(), gsmSplit.eval().size(), mmluSplit.eval().size(), anchorWeight, l2, ITERATIONS,
                fitted.loss(), fitted.gradientNorm(), RANDOM_ROUNDS));
        md.append("Label \"needs strong\" = GPT-4-1106 correct and Mixtral-8x7B wrong. APGR: area under PGR vs "
                + "strong-call share (trapezoid); CPT(p): smallest strong share with PGR ≥ p.\n\n");
        md.append("| set | router | n | needs strong | weak acc | strong acc | AUC | APGR | CPT50 | CPT80 |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<LabelledPrompt>> set : evalSets.entrySet()) {
            List<LabelledPrompt> rows = set.getValue();
            boolean[] weak = rows.stream().map(LabelledPrompt::weakCorrect).collect(BoolCollector.INSTANCE);
            boolean[] strong = rows.stream().map(LabelledPrompt::strongCorrect).collect(BoolCollector.INSTANCE);
            double[][] x = features(rows);
            double[] modelScores = Arrays.stream(x).mapToDouble(scorer::scoreFeatures).toArray();
            double[] pointScores = Arrays.stream(x)
                    .mapToDouble(v -> LogisticFit.predict(pointwise.intercept(), pointwise.weights(), v)).toArray();
            double[] oracle = rows.stream().mapToDouble(r -> r.needsStrong() ? 1 : r.weakCorrect() ? 0 : 0.5)
                    .toArray();
            row(md, set.getKey(), "complexity model (this fit)", RoutingMetrics.evaluate(modelScores, weak, strong));
            row(md, set.getKey(), "pointwise logistic, RouteLLM only (comparison)",
                    RoutingMetrics.evaluate(pointScores, weak, strong));
            row(md, set.getKey(), "random", RoutingMetrics.random(weak, strong, RANDOM_ROUNDS, SEED + 7));
            row(md, set.getKey(), "oracle (upper bound)", RoutingMetrics.evaluate(oracle, weak, strong));
        }
        md.append("\nBootstrap 95 % intervals (1,000 resamples of the eval rows, seeded):\n\n"
                + "| set | router | AUC | APGR |\n|---|---|---|---|\n");
        for (Map.Entry<String, List<LabelledPrompt>> set : evalSets.entrySet()) {
            List<LabelledPrompt> rows = set.getValue();
            double[][] x = features(rows);
            double[] modelScores = Arrays.stream(x).mapToDouble(scorer::scoreFeatures).toArray();
            double[] pointScores = Arrays.stream(x)
                    .mapToDouble(v -> LogisticFit.predict(pointwise.intercept(), pointwise.weights(), v)).toArray();
            interval(md, set.getKey(), "complexity model (this fit)",
                    RoutingMetrics.bootstrap(modelScores, weakOf(rows), strongOf(rows), 1_000, SEED + 21));
            interval(md, set.getKey(), "pointwise logistic (comparison)",
                    RoutingMetrics.bootstrap(pointScores, weakOf(rows), strongOf(rows), 1_000, SEED + 21));
        }
        md.append("\n").append(crossValidate(data)).append(" (the number used to choose the hyper-parameters and "
                + "features; the eval rows were not used for fitting).\n");
        double[] trainScores = Arrays.stream(trainX).mapToDouble(scorer::scoreFeatures).toArray();
        Result trainResult = RoutingMetrics.evaluate(trainScores, weakOf(train), strongOf(train));
        md.append(String.format(Locale.ROOT, "%nOn its own training rows the model has AUC %.3f, APGR %.3f "
                + "(the gap to the held-out numbers is the overfit).%n", trainResult.auc(), trainResult.apgr()));

        md.append("\n## Calibration anchors (seed 003 bands)\n\n| category | n | target | mean score | min | max |\n"
                + "|---|---|---|---|---|---|\n");
        Map<String, List<double[]>> byCategory = new TreeMap<>();
        double absError = 0;
        for (int a = 0; a < anchors.all().size(); a++) {
            Anchors.Anchor anchor = anchors.all().get(a);
            double score = scorer.score(anchor.conversation()).score();
            absError += Math.abs(score - anchor.target());
            byCategory.computeIfAbsent(anchor.category(), k -> new ArrayList<>())
                    .add(new double[] {anchor.target(), score});
        }
        byCategory.forEach((category, pairs) -> md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.3f | %.3f "
                + "| %.3f |%n", category, pairs.size(), pairs.get(0)[0],
                pairs.stream().mapToDouble(p -> p[1]).average().orElse(0),
                pairs.stream().mapToDouble(p -> p[1]).min().orElse(0),
                pairs.stream().mapToDouble(p -> p[1]).max().orElse(0))));
        md.append(String.format(Locale.ROOT, "%nMean absolute error on anchors: %.3f%n",
                absError / anchors.all().size()));
        StringBuilder misses = new StringBuilder();
        for (Anchors.Anchor anchor : anchors.all()) {
            var scored = scorer.score(anchor.conversation());
            if (Math.abs(scored.score() - anchor.target()) > 0.1) {
                String text = anchor.conversation().turns().get(anchor.conversation().turns().size() - 1).text();
                misses.append(String.format(Locale.ROOT, "| %s | %.2f | %.3f | %s | %s |%n", anchor.category(),
                        anchor.target(), scored.score(), escape(text.length() > 70 ? text.substring(0, 70) + "…" : text),
                        String.join(", ", scored.topDrivers(4))));
            }
        }
        if (misses.length() > 0) {
            md.append("\nAnchors more than 0.1 off their target:\n\n| category | target | score | prompt | top drivers |\n"
                    + "|---|---|---|---|---|\n").append(misses);
        }

        md.append("\n## Unlabelled sanity sets (all prompts)\n\n| set | n | mean | p10 | p50 | p90 | haiku | sonnet | "
                + "opus | > 0.95 |\n|---|---|---|---|---|---|---|---|---|---|\n");
        TokenCounter tokens = TokenCounter.defaultCounter();
        sanity(md, "HumanEval", PromptData.prompts(data, PromptData.HUMANEVAL), scorer, tokens);
        sanity(md, "Arena-Hard v0.1", PromptData.prompts(data, PromptData.ARENA_HARD), scorer, tokens);
        sanity(md, "GSM8K (all 400)", gsm8k.stream().map(LabelledPrompt::prompt).toList(), scorer, tokens);
        sanity(md, "MMLU (all 500)", mmlu.stream().map(LabelledPrompt::prompt).toList(), scorer, tokens);
        md.append("\nTiers by the SPEC table: haiku ≤ 512 tokens and ≤ 0.30; sonnet ≤ 2048 tokens and ≤ 0.60; "
                + "else opus (cl100k_base token counts).\n");

        md.append("\n## Weights\n\n| feature | weight | prior | pointwise comparison |\n|---|---|---|---|\n");
        md.append(String.format(Locale.ROOT, "| (intercept) | %.4f | (free) | %.4f |%n", model.intercept(),
                pointwise.intercept()));
        double[] prior = prior();
        List<String> ids = ComplexityScorer.featureIds();
        for (int f = 0; f < ids.size(); f++) {
            md.append(String.format(Locale.ROOT, "| %s | %.4f | %.1f | %.4f |%n", ids.get(f),
                    model.weights().get(ids.get(f)), prior[f], pointwise.weights()[f]));
        }

        Path target = root.resolve("bench/target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("complexity-eval.md"), md.toString(), StandardCharsets.UTF_8);
        Files.writeString(target.resolve("complexity-model.json"), json, StandardCharsets.UTF_8);
        if (install) {
            Files.writeString(root.resolve(MODEL_RESOURCE), json, StandardCharsets.UTF_8);
            md.append("\nInstalled as ").append(MODEL_RESOURCE).append('\n');
        }
        return md.toString();
    }

    /**
     * 5-fold stratified cross-validation on the training rows only (the eval rows stay unseen): the number used to
     * choose features and hyper-parameters.
     */
    static String crossValidate(Path data) {
        List<LabelledPrompt> gsm8k = PromptData.split(PromptData.labelled(data, PromptData.GSM8K, "gsm8k"),
                TRAIN_SHARE, SEED).train();
        List<LabelledPrompt> mmlu = PromptData.split(PromptData.labelled(data, PromptData.MMLU, "mmlu"), TRAIN_SHARE,
                SEED + 1).train();
        Anchors anchors = Anchors.load();
        double[][] anchorX = anchors.all().stream().map(a -> ComplexityScorer.features(a.conversation()))
                .toArray(double[][]::new);
        double[] anchorT = anchors.all().stream().mapToDouble(Anchors.Anchor::target).toArray();
        int folds = 5;
        List<List<LabelledPrompt>> gsmFolds = folds(gsm8k, folds, SEED + 11);
        List<List<LabelledPrompt>> mmluFolds = folds(mmlu, folds, SEED + 12);
        double[][] sums = new double[3][2];
        for (int k = 0; k < folds; k++) {
            List<LabelledPrompt> fitRows = new ArrayList<>();
            for (int j = 0; j < folds; j++) {
                if (j != k) {
                    fitRows.addAll(gsmFolds.get(j));
                    fitRows.addAll(mmluFolds.get(j));
                }
            }
            LogisticFit.Fitted fitted = LogisticFit.ranking(features(fitRows), labels(fitRows), anchorX, anchorT,
                    anchorWeight, l2, prior(), directions(), ITERATIONS, LEARNING_RATE);
            ComplexityScorer scorer = ComplexityScorer.withModel(
                    ComplexityModels.fromJson(modelJson(fitted).getBytes(StandardCharsets.UTF_8)));
            List<List<LabelledPrompt>> held = List.of(gsmFolds.get(k), mmluFolds.get(k),
                    concat(gsmFolds.get(k), mmluFolds.get(k)));
            for (int s = 0; s < 3; s++) {
                List<LabelledPrompt> rows = held.get(s);
                double[] scores = Arrays.stream(features(rows)).mapToDouble(scorer::scoreFeatures).toArray();
                Result r = RoutingMetrics.evaluate(scores, weakOf(rows), strongOf(rows));
                sums[s][0] += r.auc() / folds;
                sums[s][1] += r.apgr() / folds;
            }
        }
        return String.format(Locale.ROOT, "5-fold CV on train (anchor weight %.1f, L2 %.4f): gsm8k AUC %.3f APGR %.3f"
                + " | mmlu AUC %.3f APGR %.3f | overall AUC %.3f APGR %.3f", anchorWeight, l2, sums[0][0], sums[0][1],
                sums[1][0], sums[1][1], sums[2][0], sums[2][1]);
    }

    static final String PRIOR_RESOURCE = "/complexity/prior-model.json";

    /** The hand-set prior weights in feature order (the regularisation centre). */
    static double[] prior() {
        try (var in = TrainComplexityModel.class.getResourceAsStream(PRIOR_RESOURCE)) {
            ComplexityModel prior = ComplexityModels.fromJson(in.readAllBytes());
            return ComplexityScorer.featureIds().stream()
                    .mapToDouble(id -> prior.weights().getOrDefault(id, 0.0)).toArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static int[] directions() {
        return Arrays.stream(dev.zerolayer.routing.complexity.Feature.values())
                .mapToInt(dev.zerolayer.routing.complexity.Feature::direction).toArray();
    }

    private static List<List<LabelledPrompt>> folds(List<LabelledPrompt> rows, int folds, long seed) {
        List<List<LabelledPrompt>> out = new ArrayList<>();
        for (int k = 0; k < folds; k++) {
            out.add(new ArrayList<>());
        }
        int next = 0;
        for (boolean label : new boolean[] {true, false}) {
            List<LabelledPrompt> group = new ArrayList<>(rows.stream().filter(r -> r.needsStrong() == label).toList());
            java.util.Collections.shuffle(group, new java.util.Random(seed));
            for (LabelledPrompt row : group) {
                out.get(next++ % folds).add(row);
            }
        }
        return out;
    }

    private static void sanity(StringBuilder md, String name, List<String> prompts, ComplexityScorer scorer,
            TokenCounter tokens) {
        double[] scores = new double[prompts.size()];
        int haiku = 0;
        int sonnet = 0;
        int opus = 0;
        int over = 0;
        for (int i = 0; i < prompts.size(); i++) {
            Conversation conversation = Conversation.ofUser(prompts.get(i));
            scores[i] = scorer.scoreValue(conversation);
            int count = tokens.count(conversation);
            if (count <= 512 && scores[i] <= 0.30) {
                haiku++;
            } else if (count <= 2048 && scores[i] <= 0.60) {
                sonnet++;
            } else {
                opus++;
            }
            over += scores[i] > 0.95 ? 1 : 0;
        }
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        md.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.0f %% | %.0f %% | %.0f %% | "
                + "%.0f %% |%n", name, n, Arrays.stream(scores).average().orElse(0), sorted[(int) (0.1 * (n - 1))],
                sorted[(n - 1) / 2], sorted[(int) (0.9 * (n - 1))], 100.0 * haiku / n, 100.0 * sonnet / n,
                100.0 * opus / n, 100.0 * over / n));
    }

    private static void interval(StringBuilder md, String set, String router, RoutingMetrics.Interval[] ci) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %.3f – %.3f | %.3f – %.3f |%n", set, router, ci[0].low(),
                ci[0].high(), ci[1].low(), ci[1].high()));
    }

    private static void row(StringBuilder md, String set, String router, Result r) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n", set,
                router, r.size(), r.needsStrong(), r.weakAccuracy(), r.strongAccuracy(), r.auc(), r.apgr(), r.cpt50(),
                r.cpt80()));
    }

    /** The model as its JSON event, weights in feature order, rounded to 4 decimals; a stable version name. */
    static String modelJson(LogisticFit.Fitted fitted) {
        List<String> ids = ComplexityScorer.featureIds();
        StringBuilder weights = new StringBuilder();
        long hash = 1125899906842597L;
        for (int f = 0; f < ids.size(); f++) {
            double w = round(fitted.weights()[f]);
            weights.append(String.format(Locale.ROOT, "    \"%s\" : %.4f%s%n", ids.get(f), w,
                    f + 1 < ids.size() ? "," : ""));
            hash = 31 * hash + ids.get(f).hashCode() + Double.hashCode(w);
        }
        double intercept = round(fitted.intercept());
        hash = 31 * hash + Double.hashCode(intercept);
        String version = String.format(Locale.ROOT, "cx-logit-1.%08x", (int) (hash ^ (hash >>> 32)));
        return "{\n"
                + "  \"eventId\" : \"" + version + "\",\n"
                + "  \"occurredAt\" : \"" + Instant.parse("2026-01-01T00:00:00Z") + "\",\n"
                + "  \"schemaVersion\" : 1,\n"
                + "  \"modelVersion\" : \"" + version + "\",\n"
                + "  \"tokenizerEncoding\" : \"" + TokenCounter.DEFAULT_ENCODING + "\",\n"
                + String.format(Locale.ROOT, "  \"intercept\" : %.4f,%n", intercept)
                + "  \"weights\" : {\n" + weights + "  }\n}\n";
    }

    private static String escape(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }

    private static double round(double value) {
        return Math.round(value * 10_000.0) / 10_000.0;
    }

    private static double[][] features(List<LabelledPrompt> rows) {
        return rows.stream().map(r -> ComplexityScorer.features(Conversation.ofUser(r.prompt())))
                .toArray(double[][]::new);
    }

    private static boolean[] labels(List<LabelledPrompt> rows) {
        return rows.stream().map(LabelledPrompt::needsStrong).collect(BoolCollector.INSTANCE);
    }

    private static boolean[] weakOf(List<LabelledPrompt> rows) {
        return rows.stream().map(LabelledPrompt::weakCorrect).collect(BoolCollector.INSTANCE);
    }

    private static boolean[] strongOf(List<LabelledPrompt> rows) {
        return rows.stream().map(LabelledPrompt::strongCorrect).collect(BoolCollector.INSTANCE);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The project root: the working directory or its parent, whichever holds routing-core and bench. */
    static Path projectRoot() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("routing-core")) && Files.isDirectory(p.resolve("bench"))) {
                return p;
            }
        }
        throw new IllegalStateException("run from the project root (no routing-core/ and bench/ above " + cwd + ")");
    }
}
