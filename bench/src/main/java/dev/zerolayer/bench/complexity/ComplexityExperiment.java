package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Feature;
import dev.zerolayer.routing.complexity.HashedNgrams;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * Which complexity signal separates "the strong model's answer is better" on all the labelled sets (GSM8K 1,319 and
 * MMLU 14,042 with correctness; arena-bench-v1's 292 questions with GPT-4 grades of both models): 5-fold
 * cross-validated (seeded, per dataset), per-dataset APGR with 95 % bootstrap intervals, for random, prompt length,
 * today's lexical model, hashed n-gram regressions on two targets (the graded gap, and the question's difficulty over
 * every graded model) and the learned model's stacked form, and how far padding moves each learned score;
 * deterministic.
 *
 * <pre>
 * ./mvnw -B -o -q install -pl contracts,routing-core -DskipTests
 * ./mvnw -B -o -q -pl bench compile exec:java -Dexec.mainClass=dev.zerolayer.bench.complexity.ComplexityExperiment
 * </pre>
 * Options: {@code --data DIR} (default {@code ../shared/data/prompts}), {@code --bits B} (hash buckets 2^B, 18),
 * {@code --l2 L}, {@code --epochs E}, {@code --unscaled} (n-grams summed, not scaled to unit length), {@code --augment
 * N} (N padded training copies per prompt), {@code --write-model FILE} (the stacked learned model as a complexity model
 * event), {@code --anchor-weight W} (the calibration anchors as soft targets in the stacking, weighing W against the
 * labelled rows), {@code --translated K} (K training copies of each Chinese translation in {@link TranslatedCopies};
 * the held-out shift on them is reported either way), {@code --lexicon DIR} (a training copy of every prompt put into
 * Chinese word by word, {@link PseudoChinese}, from the dictionary and word frequencies in DIR), {@code --pseudo K} (K
 * such copies each, 1), {@code --distil} (those copies learn their original's fitted n-gram value, not its label).
 * Writes {@code bench/target/complexity-experiment.md} (run from the project root).
 */
public final class ComplexityExperiment {

    static final long SEED = 20_261_202L;
    static final int FOLDS = 5;
    static final int BOOTSTRAP = 1_000;
    static final String ARENA = "arena_bench_v1_gpt4_single_scores.jsonl";
    static final String STRONG_GRADED = "gpt-4-1106-preview";
    static final String WEAK_GRADED = "mistralai/Mixtral-8x7B-Instruct-v0.1";

    /** The paddings whose effect on a score is measured: text that should not change how hard a prompt is. */
    static final Map<String, UnaryOperator<String>> PADDINGS = paddings();

    /**
     * Content-free sentences added to training copies of the prompts ({@code --augment}), so that such text learns no
     * weight; none of them is in the measured {@link #PADDINGS}, so the padding check stays held out.
     */
    static final List<String> GREETINGS = List.of("Hi!", "Hey,", "Good morning.", "Good afternoon!", "Greetings.",
            "Dear assistant,", "Hi, hope you're doing well.", "Hope all is well!", "Howdy.", "Good evening.");
    static final List<String> CONTEXTS = List.of("I'm studying for an exam.", "A colleague asked me this and I am "
            + "not sure.", "This came up at work today.", "I've been stuck on this for a while.", "My teacher gave us "
            + "this one.", "I'm preparing for an interview.", "Just curious about this.", "I have a small favour to "
            + "ask.", "I need this for a project.", "This is for my homework.", "You are a helpful assistant.");
    static final List<String> REQUESTS = List.of("Could you help me out with the following?", "Please read carefully "
            + "before responding.", "Here is my question:", "Can you take a look?", "I'd be grateful for a clear "
            + "answer.", "Please answer the following.", "Would you mind helping me?", "Please walk me through it.",
            "Any help is welcome.", "Quick one for you:");
    static final List<String> CLOSERS = List.of("Thanks!", "Thank you very much.", "Cheers.", "Much appreciated!",
            "Please be concise.", "Looking forward to your reply.", "Have a nice day!", "Let me know if anything is "
            + "unclear.", "Thanks in advance :)", "I appreciate it.", "Take care.", "Be brief please.", "That's all, "
            + "thanks.", "Kind regards.", "Thanks a ton!", "Best wishes.");

    /** A training copy of {@code prompt} with a random greeting, context and request before it, closer after it. */
    static String augmented(String prompt, Random random) {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        while (before.isEmpty() && after.isEmpty()) {
            for (List<String> part : List.of(GREETINGS, CONTEXTS, REQUESTS)) {
                if (random.nextBoolean()) {
                    before.append(part.get(random.nextInt(part.size()))).append(' ');
                }
            }
            if (random.nextBoolean()) {
                after.append(random.nextBoolean() ? "\n\n" : " ").append(CLOSERS.get(random.nextInt(CLOSERS.size())));
            }
        }
        return before + (before.isEmpty() ? "" : random.nextBoolean() ? "\n\n" : "") + prompt + after;
    }

    /** One labelled prompt: answer quality of both models in [0,1] and the mean quality over every graded model. */
    record Row(String dataset, String prompt, double weak, double strong, double meanQuality) {
    }

    private ComplexityExperiment() {
    }

    private static Map<String, UnaryOperator<String>> paddings() {
        String emoji = "\uD83D\uDE00\uD83D\uDE80\u2728".repeat(34);
        Map<String, UnaryOperator<String>> paddings = new LinkedHashMap<>();
        paddings.put("100 emoji before", p -> emoji + p);
        paddings.put("whitespace and newlines around", p -> "\n\n   \t" + p.replace(" ", "   ") + "\n\n\n    ");
        paddings.put("polite boilerplate before", p -> "Hello! I hope you are having a great day. I have a question "
                + "for you and I would really appreciate your help with it. Thank you so much in advance!\n\n" + p);
        paddings.put("polite closing after", p -> p + "\n\nMany thanks for your time, and have a wonderful rest of "
                + "your week!");
        return java.util.Collections.unmodifiableMap(paddings);
    }

    public static void main(String[] args) throws IOException {
        Path data = Path.of("../shared/data/prompts");
        int bits = 18;
        double l2 = 1e-4;
        int epochs = 12;
        int augment = 0;
        Path writeModel = null;
        double anchorWeight = 0;
        int perTranslation = 0;
        Path lexicon = null;
        int perPseudo = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Path.of(args[++i]);
                case "--bits" -> bits = Integer.parseInt(args[++i]);
                case "--l2" -> l2 = Double.parseDouble(args[++i]);
                case "--epochs" -> epochs = Integer.parseInt(args[++i]);
                case "--unscaled" -> unscaled = true;
                case "--augment" -> augment = Integer.parseInt(args[++i]);
                case "--write-model" -> writeModel = Path.of(args[++i]);
                case "--anchor-weight" -> anchorWeight = Double.parseDouble(args[++i]);
                case "--translated" -> perTranslation = Integer.parseInt(args[++i]);
                case "--lexicon" -> lexicon = Path.of(args[++i]);
                case "--pseudo" -> perPseudo = Integer.parseInt(args[++i]);
                case "--distil" -> distil = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!Files.isDirectory(data)) {
            data = Path.of("../../shared/data/prompts");
        }
        List<Row> rows = new ArrayList<>();
        rows.addAll(correctness(data, "routellm_gsm8k_weak_strong_correct_full.jsonl", "gsm8k"));
        rows.addAll(correctness(data, "routellm_mmlu_weak_strong_correct_full.jsonl", "mmlu"));
        rows.addAll(arena(data));
        int[] fold = folds(rows);
        HashedNgrams ngrams = new HashedNgrams(bits);
        List<HashedNgrams.Sparse> features = rows.stream().map(r -> ngrams.features(r.prompt())).toList();
        TranslatedCopies translations = TranslatedCopies.of(rows);
        String[] pseudo = null;
        if (lexicon != null) {
            PseudoChinese dictionary = PseudoChinese.load(lexicon);
            pseudo = rows.stream().map(r -> dictionary.translate(r.prompt())).toArray(String[]::new);
            System.out.printf(Locale.ROOT, "word-by-word Chinese copies: %d English words known%n",
                    dictionary.vocabulary());
        }
        Training training = Training.of(rows, features, ngrams, augment, translations, perTranslation, pseudo,
                perPseudo);

        Map<String, double[]> scores = new LinkedHashMap<>();
        TokenCounter counter = TokenCounter.defaultCounter();
        scores.put("prompt length (tokens)", each(rows, r -> counter.count(Conversation.ofUser(r.prompt()))));
        ComplexityScorer lexical = ComplexityScorer.withModel(ComplexityModels.lexical());
        scores.put("lexical model (today's default)", each(rows,
                r -> lexical.scoreValue(Conversation.ofUser(r.prompt()))));
        double[] gap = each(rows, r -> r.strong() - r.weak());
        double[] difficulty = each(rows, r -> 1 - r.meanQuality());
        long start = System.nanoTime();
        double[] translatedRegression = new double[rows.size()];
        scores.put("n-grams → graded gap", crossValidated(rows, training, fold, gap, ngrams.dimension(), l2, epochs,
                translations.byRow(), translatedRegression));
        scores.put("n-grams → difficulty", crossValidated(rows, training, fold, difficulty, ngrams.dimension(), l2,
                epochs));
        double fitSeconds = (System.nanoTime() - start) / 1e9;
        double[][] rowFeatures = rows.stream().map(r -> ComplexityScorer.features(Conversation.ofUser(r.prompt())))
                .toArray(double[][]::new);
        double[] lexicalLogits = Arrays.stream(rowFeatures).mapToDouble(f -> lexicalLogit(lexical, f)).toArray();
        double[] full = fit(rows, training, training.outside(fold, -1), gap, ngrams.dimension(), l2, epochs);
        Anchors anchors = Anchors.load();
        double[][] anchorFeatures = anchors.all().stream().map(a -> ComplexityScorer.features(a.conversation()))
                .toArray(double[][]::new);
        double[][] anchorInputs = new double[anchorFeatures.length][];
        for (int a = 0; a < anchorFeatures.length; a++) {
            anchorInputs[a] = new double[] {full[ngrams.dimension()] + value(ngrams.features(newestUserText(
                    anchors.all().get(a).conversation())), full), lexicalLogit(lexical, anchorFeatures[a])};
        }
        double[] anchorEasy = Arrays.stream(anchorFeatures).mapToDouble(f -> easyLogit(lexical, f)).toArray();
        double[] easyLogits = Arrays.stream(rowFeatures).mapToDouble(f -> easyLogit(lexical, f)).toArray();
        double[] anchorTargets = anchors.all().stream().mapToDouble(Anchors.Anchor::target).toArray();
        Learned learned = Learned.stack(rows, scores.get("n-grams → graded gap"), lexicalLogits, easyLogits, gap,
                fold, anchorInputs, anchorEasy, anchorTargets, anchorWeight);
        scores.put("n-grams and lexical logit, stacked (the learned model's form)", learned.outOfFold());

        StringBuilder report = new StringBuilder();
        report.append("# Complexity signals on the labelled sets (issue #30)\n\n");
        report.append(translations.heldOut(rows, fold, learned, scores.get("n-grams → graded gap"),
                translatedRegression, rowFeatures, lexicalLogits, easyLogits, lexical, perTranslation));
        report.append(String.format(Locale.ROOT, "%d rows; %d-fold cross-validation per dataset (seed %d); hashed "
                + "n-grams 2^%d buckets%s, L2 %.0e, %d epochs, %d padded training copies per prompt (%.1f s for both "
                + "targets' folds); APGR with 95 %% bootstrap interval (%d resamples).%n%n", rows.size(), FOLDS, SEED,
                bits, unscaled ? " summed" : " unit length", l2, epochs, augment, fitSeconds, BOOTSTRAP));
        report.append("| signal | dataset | rows | strong better | AUC | APGR | 95 % interval | CPT50 | CPT80 |\n");
        report.append("|---|---|---|---|---|---|---|---|---|\n");
        for (String dataset : List.of("gsm8k", "mmlu", "gsm8k+mmlu", "arena")) {
            int[] members = members(rows, dataset);
            double[] weak = pick(each(rows, Row::weak), members);
            double[] strong = pick(each(rows, Row::strong), members);
            RoutingMetrics.Result random = RoutingMetrics.random(weak, strong, 200, SEED);
            report.append(row("random (mean of 200 orders)", dataset, random, null));
            for (Map.Entry<String, double[]> signal : scores.entrySet()) {
                double[] s = pick(signal.getValue(), members);
                RoutingMetrics.Result result = RoutingMetrics.evaluate(s, weak, strong);
                RoutingMetrics.Interval[] interval = RoutingMetrics.bootstrap(s, weak, strong, BOOTSTRAP, SEED);
                report.append(row(signal.getKey(), dataset, result, interval[1]));
            }
        }
        ComplexityModel unmapped = learned.model(full, bits, lexical.model(), "unmapped");
        ComplexityScorer unmappedScorer = ComplexityScorer.withModel(unmapped);
        double[] unmappedAnchorScores = anchors.all().stream()
                .mapToDouble(a -> unmappedScorer.score(a.conversation()).modelScore()).toArray();
        boolean[] ruled = new boolean[anchorTargets.length];
        for (int k = 0; k < ruled.length; k++) {
            ruled[k] = !unmappedScorer.score(anchors.all().get(k).conversation()).rules().isEmpty();
        }
        ComplexityModel.ScoreMap scoreMap = ScoreMaps.scoreMap(anchors, unmappedAnchorScores, ruled);
        String version = String.format(Locale.ROOT, "cx-ngrams-2.b%d-a%d-l%s-m%d", bits, augment,
                Double.toString(l2).replace("E", "e"), scoreMap.from().size());
        ComplexityModel model = new ComplexityModel(version, unmapped.occurredAt(), 1, version,
                unmapped.tokenizerEncoding(), unmapped.intercept(), unmapped.weights(), unmapped.ngrams(), scoreMap);
        ComplexityScorer served = ComplexityScorer.withModel(ComplexityModels.fromJson(EventCodec.encode(model)));
        ComplexityScorer anchored = served;
        double[] anchorScores = anchors.all().stream().mapToDouble(a -> anchored.scoreValue(a.conversation()))
                .toArray();
        Map<String, double[]> byCategory = new LinkedHashMap<>();
        int withinBand = 0;
        double absError = 0;
        for (int k = 0; k < anchorScores.length; k++) {
            Anchors.Anchor anchor = anchors.all().get(k);
            byCategory.computeIfAbsent(anchor.category(), c -> new double[3]);
            double[] acc = byCategory.get(anchor.category());
            acc[0] += anchor.target();
            acc[1] += anchorScores[k];
            acc[2]++;
            withinBand += Math.abs(anchorScores[k] - anchor.target()) <= 0.1 ? 1 : 0;
            absError += Math.abs(anchorScores[k] - anchor.target()) / anchorScores.length;
        }
        report.append(String.format(Locale.ROOT, "%n## The seed's score bands (%d calibration anchors, anchor weight "
                + "%.1f)%n%nWithin ±0.1 of the band: %d of %d; mean |score − band| %.3f.%n%n| category | band | mean "
                + "score |%n|---|---|---|%n", anchorScores.length, anchorWeight, withinBand, anchorScores.length,
                absError));
        byCategory.forEach((category, acc) -> report.append(String.format(Locale.ROOT, "| %s | %.2f | %.3f |%n",
                category, acc[0] / acc[2], acc[1] / acc[2])));
        report.append(ScoreMaps.heldOut(anchors, unmappedAnchorScores, ruled));
        report.append("\n").append(robustness(rows, training, gap, difficulty, ngrams, l2, epochs,
                Map.of("learned model " + model.modelVersion() + " (as served, int8 buckets)",
                        p -> served.scoreValue(Conversation.ofUser(p)))));
        if (writeModel != null) {
            Files.write(writeModel, EventCodec.encode(model));
            double[] servedScores = each(rows, r -> served.scoreValue(Conversation.ofUser(r.prompt())));
            report.append(String.format(Locale.ROOT, "%nWrote %s (%d bytes): %s, stacked as σ(%.3f + %.3f × n-gram "
                    + "regression + %.3f × lexical logit + %.3f × easy-traffic logit), %d-knot score map; scores on every row (in-sample): p10 %.3f, p50 %.3f, "
                    + "p90 %.3f.%n", writeModel, Files.size(writeModel), model.modelVersion(), learned.intercept(),
                    learned.ngramWeight(), learned.lexicalWeight(), learned.easyWeight(), scoreMap.from().size(),
                    quantile(servedScores, 0.1),
                    quantile(servedScores, 0.5), quantile(servedScores, 0.9)));
        }
        Path out = Path.of(Files.isDirectory(Path.of("bench")) ? "bench/target" : "target", "complexity-experiment.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8);
        System.out.println(report);
    }

    /** The text of the newest user turn (empty when none), which the n-gram part reads. */
    static String newestUserText(Conversation conversation) {
        int latest = conversation.latestUserIndex();
        return latest < 0 ? "" : conversation.turns().get(latest).text();
    }

    /** Whether a feature marks a simple request (designed direction −1: chit-chat, plain, lookup, summary). */
    static boolean easy(String featureId) {
        return Feature.byId(featureId).orElseThrow().direction() < 0;
    }

    /** The lexical model's terms of the {@link #easy} features (no intercept), for a prompt's lexical features. */
    static double easyLogit(ComplexityScorer lexical, double[] features) {
        List<String> ids = ComplexityScorer.featureIds();
        double logit = 0;
        for (int k = 0; k < ids.size(); k++) {
            logit += easy(ids.get(k)) ? features[k] * lexical.model().weights().getOrDefault(ids.get(k), 0.0) : 0;
        }
        return logit;
    }

    /** The lexical model's logit (before the sigmoid and the vague rule), for a prompt's lexical features. */
    static double lexicalLogit(ComplexityScorer lexical, double[] features) {
        List<String> ids = ComplexityScorer.featureIds();
        double logit = lexical.model().intercept();
        for (int k = 0; k < ids.size(); k++) {
            logit += features[k] * lexical.model().weights().getOrDefault(ids.get(k), 0.0);
        }
        return logit;
    }

    static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }

    static String row(String signal, String dataset, RoutingMetrics.Result r, RoutingMetrics.Interval ci) {
        return String.format(Locale.ROOT, "| %s | %s | %d | %d | %.3f | %.3f | %s | %.3f | %.3f |%n", signal, dataset,
                r.size(), r.needsStrong(), r.auc(), r.apgr(),
                ci == null ? "" : String.format(Locale.ROOT, "%.3f–%.3f", ci.low(), ci.high()), r.cpt50(), r.cpt80());
    }

    /** Out-of-fold predictions of a ridge regression on the n-grams, every dataset weighing the same in the fit. */
    static double[] crossValidated(List<Row> rows, Training training, int[] fold, double[] target,
            int dimension, double l2, int epochs) {
        return crossValidated(rows, training, fold, target, dimension, l2, epochs, null, null);
    }

    /**
     * As above; {@code translations}, when given, are scored out of fold too into {@code translatedOut} (by row),
     * whether or not the training holds copies of them.
     */
    static double[] crossValidated(List<Row> rows, Training training, int[] fold, double[] target,
            int dimension, double l2, int epochs, String[] translations, double[] translatedOut) {
        double[] out = new double[rows.size()];
        HashedNgrams ngrams = new HashedNgrams(Integer.numberOfTrailingZeros(dimension));
        for (int f = 0; f < FOLDS; f++) {
            double[] w = fit(rows, training, training.outside(fold, f), target, dimension, l2, epochs);
            for (int i = 0; i < rows.size(); i++) {
                if (fold[i] == f) {
                    out[i] = w[dimension] + value(training.x().get(i), w);
                    if (translations != null && translations[i] != null) {
                        translatedOut[i] = w[dimension] + value(ngrams.features(translations[i]), w);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Whether a prompt's n-grams count 1 each (a sum: text that carries no signal adds nothing) instead of scaled to
     * unit length (a mean-like vector: any added text dilutes the rest).
     */
    static boolean unscaled;

    /**
     * Whether the word-by-word Chinese copies learn their original's fitted value (a first fit without them) instead
     * of its label.
     */
    static boolean distil;

    static double value(HashedNgrams.Sparse sample, double[] w) {
        return unscaled ? sample.dot(w) / Math.max(sample.value(), 1e-12) : sample.dot(w);
    }

    /** The per-bucket gradient factor: unscaled, normalised by the squared length (n), which keeps SGD stable. */
    static double update(HashedNgrams.Sparse sample) {
        return unscaled ? sample.value() * sample.value() : sample.value();
    }

    /** Weights (the last one the intercept) of a ridge regression fitted by SGD over {@code train}. */
    static double[] fit(List<Row> rows, Training training, List<Integer> train, double[] target,
            int dimension, double l2, int epochs) {
        double[] own = null;
        if (distil && training.pseudoFrom() < training.x().size()) {
            double[] first = fit(rows, training, train.stream().filter(j -> j < training.pseudoFrom()).toList(), target,
                    dimension, l2, epochs, null);
            own = new double[training.x().size()];
            for (int j : train) {
                if (j >= training.pseudoFrom()) {
                    own[j] = first[dimension] + value(training.x().get(training.source()[j]), first);
                }
            }
        }
        return fit(rows, training, train, target, dimension, l2, epochs, own);
    }

    /** As above, sample j's target {@code own[j]} where it is a word-by-word Chinese copy and {@code own} is given. */
    private static double[] fit(List<Row> rows, Training training, List<Integer> train, double[] target,
            int dimension, double l2, int epochs, double[] own) {
        List<HashedNgrams.Sparse> x = training.x();
        int[] source = training.source();
        Map<String, Integer> perDataset = new LinkedHashMap<>();
        for (int i : train) {
            perDataset.merge(rows.get(source[i]).dataset(), 1, Integer::sum);
        }
        double mean = 0;
        for (int i : train) {
            mean += target[source[i]] / train.size();
        }
        double[] w = new double[dimension + 1];
        List<Integer> order = new ArrayList<>(train);
        Random random = new Random(SEED);
        for (int epoch = 0; epoch < epochs; epoch++) {
            Collections.shuffle(order, random);
            // a unit-length sample takes a step of at most learningRate × weight ≤ 1: stable (below 2)
            double learningRate = 0.2 / (1 + 0.3 * epoch);
            for (int i : order) {
                HashedNgrams.Sparse sample = x.get(i);
                // each dataset as a whole weighs the same, whatever its size (capped for the smallest)
                double weight = Math.min(5, (double) train.size()
                        / (perDataset.size() * perDataset.get(rows.get(source[i]).dataset())));
                double goal = own != null && i >= training.pseudoFrom() ? own[i] : target[source[i]];
                double error = w[dimension] + mean + value(sample, w) - goal;
                double step = learningRate * weight * error;
                for (int index : sample.indices()) {
                    w[index] -= step * update(sample) + learningRate * l2 * w[index];
                }
                w[dimension] -= step * 0.01;
            }
        }
        w[dimension] += mean;
        for (double v : w) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("the fit diverged");
            }
        }
        return w;
    }

    /** How far padding moves each learned score, in percentiles of the scores of the unpadded prompts. */
    private static String robustness(List<Row> rows, Training training, double[] gap, double[] difficulty,
            HashedNgrams ngrams, double l2, int epochs, Map<String, ToDoubleFunction<String>> extra) {
        List<Integer> all = training.outside(new int[rows.size()], -1);
        int dimension = ngrams.dimension();
        Map<String, double[]> models = new LinkedHashMap<>();
        models.put("n-grams → graded gap", fit(rows, training, all, gap, dimension, l2, epochs));
        models.put("n-grams → difficulty", fit(rows, training, all, difficulty, dimension, l2, epochs));
        Random random = new Random(SEED);
        List<String> sample = new ArrayList<>();
        for (Row row : rows) {
            if (row.dataset().equals("arena") || random.nextInt(40) == 0) {
                sample.add(row.prompt());
            }
        }
        StringBuilder out = new StringBuilder("## Padding (").append(sample.size())
                .append(" prompts: every arena question and 1 in 40 of the others)\n\n")
                .append("Shift of the score in percentiles of the unpadded scores: median / 95th percentile / max.\n\n")
                .append("| model | padding | median | p95 | max |\n|---|---|---|---|---|\n");
        ComplexityScorer lexical = ComplexityScorer.withModel(ComplexityModels.lexical());
        Map<String, ToDoubleFunction<String>> scorers = new LinkedHashMap<>();
        scorers.put("lexical model (today's default)", p -> lexical.scoreValue(Conversation.ofUser(p)));
        for (Map.Entry<String, double[]> model : models.entrySet()) {
            double[] w = model.getValue();
            scorers.put(model.getKey(), p -> w[dimension] + value(ngrams.features(p), w));
        }
        scorers.putAll(extra);
        for (Map.Entry<String, ToDoubleFunction<String>> scorer : scorers.entrySet()) {
            double[] base = sample.stream().mapToDouble(scorer.getValue()).toArray();
            double[] sorted = base.clone();
            Arrays.sort(sorted);
            for (Map.Entry<String, UnaryOperator<String>> padding : PADDINGS.entrySet()) {
                double[] shifts = new double[sample.size()];
                for (int i = 0; i < sample.size(); i++) {
                    double padded = scorer.getValue().applyAsDouble(padding.getValue().apply(sample.get(i)));
                    shifts[i] = Math.abs(percentile(sorted, padded) - percentile(sorted, base[i]));
                }
                Arrays.sort(shifts);
                out.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f |%n", scorer.getKey(),
                        padding.getKey(), shifts[shifts.length / 2], shifts[(int) (shifts.length * 0.95)],
                        shifts[shifts.length - 1]));
            }
            List<String[]> pairs = translations();
            double[] shifts = new double[pairs.size()];
            for (int i = 0; i < pairs.size(); i++) {
                shifts[i] = Math.abs(percentile(sorted, scorer.getValue().applyAsDouble(pairs.get(i)[1]))
                        - percentile(sorted, scorer.getValue().applyAsDouble(pairs.get(i)[0])));
            }
            Arrays.sort(shifts);
            out.append(String.format(Locale.ROOT, "| %s | translated into Chinese (%d pairs) | %.1f | %.1f | %.1f |%n",
                    scorer.getKey(), pairs.size(), shifts[shifts.length / 2], shifts[(int) (shifts.length * 0.95)],
                    shifts[shifts.length - 1]));
        }
        return out.toString();
    }

    /** English prompts and their Chinese translations ({@code complexity/translations.tsv}). */
    static List<String[]> translations() {
        try (java.io.InputStream in = ComplexityExperiment.class.getResourceAsStream("/complexity/translations.tsv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).map(line -> line.split("\t", 2))
                    .toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Where {@code value} falls among {@code sorted}, in percent. */
    static double percentile(double[] sorted, double value) {
        int below = Arrays.binarySearch(sorted, value);
        int position = below >= 0 ? below : -below - 1;
        return 100.0 * position / sorted.length;
    }

    static int[] folds(List<Row> rows) {
        int[] fold = new int[rows.size()];
        Map<String, List<Integer>> byDataset = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            byDataset.computeIfAbsent(rows.get(i).dataset(), d -> new ArrayList<>()).add(i);
        }
        Random random = new Random(SEED);
        for (List<Integer> members : byDataset.values()) {
            Collections.shuffle(members, random);
            for (int k = 0; k < members.size(); k++) {
                fold[members.get(k)] = k % FOLDS;
            }
        }
        return fold;
    }

    static int[] members(List<Row> rows, String dataset) {
        List<String> wanted = List.of(dataset.split("\\+"));
        return java.util.stream.IntStream.range(0, rows.size()).filter(i -> wanted.contains(rows.get(i).dataset()))
                .toArray();
    }

    static double[] pick(double[] values, int[] members) {
        double[] out = new double[members.length];
        for (int k = 0; k < members.length; k++) {
            out[k] = values[members[k]];
        }
        return out;
    }

    static double[] each(List<Row> rows, ToDoubleFunction<Row> value) {
        return rows.stream().mapToDouble(value).toArray();
    }

    static List<Row> correctness(Path dir, String file, String dataset) {
        return PromptData.labelled(dir, file, dataset).stream().map(p -> new Row(dataset, p.prompt(),
                p.weakCorrect() ? 1 : 0, p.strongCorrect() ? 1 : 0,
                ((p.weakCorrect() ? 1 : 0) + (p.strongCorrect() ? 1 : 0)) / 2.0)).toList();
    }

    static List<Row> arena(Path dir) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(ARENA), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = EventCodec.mapper().readTree(line);
            JsonNode grades = node.path("gpt4_single_scores");
            if (!grades.has(STRONG_GRADED) || !grades.has(WEAK_GRADED)) {
                continue;
            }
            double total = 0;
            int graded = 0;
            for (String model : grades.propertyNames()) {
                total += grades.get(model).asDouble() / 10;
                graded++;
            }
            rows.add(new Row("arena", node.path("prompt").asString(), grades.get(WEAK_GRADED).asDouble() / 10,
                    grades.get(STRONG_GRADED).asDouble() / 10, total / graded));
        }
        return rows;
    }
}
