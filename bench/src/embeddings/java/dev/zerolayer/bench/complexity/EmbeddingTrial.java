package dev.zerolayer.bench.complexity;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.zerolayer.bench.complexity.ComplexityExperiment.Row;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue #30's encoder trial: all-MiniLM-L6-v2 (quantised, LangChain4j's in-process ONNX, 128-token input) sentence
 * embeddings of every labelled prompt, and a ridge regression on them to the graded gap, cross-validated exactly as
 * {@link ComplexityExperiment} (same rows, folds and metrics), with the encoder's time per prompt and how far padding
 * moves the score.
 *
 * <pre>
 * ./mvnw -B -o -q install -pl contracts,routing-core -DskipTests
 * ./mvnw -B -q -pl bench -Pembeddings compile exec:java -Dexec.mainClass=dev.zerolayer.bench.complexity.EmbeddingTrial
 * </pre>
 * Embeddings are cached in {@code bench/target/minilm-embeddings.bin}. Writes {@code bench/target/embedding-trial.md}.
 */
public final class EmbeddingTrial {

    private static final int DIM = 384;

    private EmbeddingTrial() {
    }

    public static void main(String[] args) throws IOException {
        Path data = Path.of(args.length > 0 ? args[0] : Files.isDirectory(Path.of("../shared/data/prompts"))
                ? "../shared/data/prompts" : "../../shared/data/prompts");
        Path target = Path.of(Files.isDirectory(Path.of("bench")) ? "bench/target" : "target");
        List<Row> rows = new ArrayList<>();
        rows.addAll(ComplexityExperiment.correctness(data, "routellm_gsm8k_weak_strong_correct_full.jsonl", "gsm8k"));
        rows.addAll(ComplexityExperiment.correctness(data, "routellm_mmlu_weak_strong_correct_full.jsonl", "mmlu"));
        rows.addAll(ComplexityExperiment.arena(data));
        EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();
        Path cache = target.resolve("minilm-embeddings.bin");
        long[] nanos = new long[rows.size()];
        float[][] x = embeddings(model, rows, cache, nanos);
        int[] fold = ComplexityExperiment.folds(rows);
        double[] gap = ComplexityExperiment.each(rows, r -> r.strong() - r.weak());

        StringBuilder report = new StringBuilder("# MiniLM embeddings → graded gap (issue #30 trial)\n\n");
        long[] measured = Arrays.stream(nanos).filter(n -> n > 0).sorted().toArray();
        if (measured.length > 0) {
            report.append(String.format(Locale.ROOT, "Encoder time per prompt (one thread, %d prompts embedded in "
                    + "this run): p50 %.1f ms, p99 %.1f ms.%n%n", measured.length,
                    measured[measured.length / 2] / 1e6, measured[(int) (measured.length * 0.99)] / 1e6));
        }
        report.append("| signal | dataset | rows | strong better | AUC | APGR | 95 % interval | CPT50 | CPT80 |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        Map<String, double[]> scores = new LinkedHashMap<>();
        for (double lambda : new double[] {1, 10, 100}) {
            scores.put("MiniLM ridge λ=" + (int) lambda, crossValidated(rows, x, fold, gap, lambda));
        }
        for (String dataset : List.of("gsm8k", "mmlu", "gsm8k+mmlu", "arena")) {
            int[] members = ComplexityExperiment.members(rows, dataset);
            double[] weak = ComplexityExperiment.pick(ComplexityExperiment.each(rows, Row::weak), members);
            double[] strong = ComplexityExperiment.pick(ComplexityExperiment.each(rows, Row::strong), members);
            for (Map.Entry<String, double[]> signal : scores.entrySet()) {
                double[] s = ComplexityExperiment.pick(signal.getValue(), members);
                report.append(ComplexityExperiment.row(signal.getKey(), dataset, RoutingMetrics.evaluate(s, weak,
                        strong), RoutingMetrics.bootstrap(s, weak, strong, ComplexityExperiment.BOOTSTRAP,
                        ComplexityExperiment.SEED)[1]));
            }
        }
        report.append("\n").append(padding(model, rows, x, gap));
        Files.writeString(target.resolve("embedding-trial.md"), report);
        System.out.println(report);
    }

    private static float[][] embeddings(EmbeddingModel model, List<Row> rows, Path cache, long[] nanos)
            throws IOException {
        float[][] x = new float[rows.size()][];
        if (Files.exists(cache)) {
            try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(cache)))) {
                if (in.readInt() == rows.size()) {
                    for (int i = 0; i < rows.size(); i++) {
                        x[i] = new float[DIM];
                        for (int k = 0; k < DIM; k++) {
                            x[i][k] = in.readFloat();
                        }
                    }
                    return x;
                }
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            long start = System.nanoTime();
            x[i] = model.embed(rows.get(i).prompt()).content().vector();
            nanos[i] = System.nanoTime() - start;
        }
        Files.createDirectories(cache.toAbsolutePath().getParent());
        try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                Files.newOutputStream(cache)))) {
            out.writeInt(rows.size());
            for (float[] v : x) {
                for (float f : v) {
                    out.writeFloat(f);
                }
            }
        }
        return x;
    }

    private static double[] crossValidated(List<Row> rows, float[][] x, int[] fold, double[] target, double lambda) {
        double[] out = new double[rows.size()];
        for (int f = 0; f < ComplexityExperiment.FOLDS; f++) {
            List<Integer> train = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                if (fold[i] != f) {
                    train.add(i);
                }
            }
            double[] w = ridge(rows, x, train, target, lambda);
            for (int i = 0; i < rows.size(); i++) {
                if (fold[i] == f) {
                    out[i] = predict(w, x[i]);
                }
            }
        }
        return out;
    }

    static double predict(double[] w, float[] x) {
        double sum = w[DIM];
        for (int k = 0; k < DIM; k++) {
            sum += w[k] * x[k];
        }
        return sum;
    }

    /** Ridge regression (intercept unpenalised), every dataset weighing the same: the normal equations, solved. */
    static double[] ridge(List<Row> rows, float[][] x, List<Integer> train, double[] target, double lambda) {
        Map<String, Integer> perDataset = new LinkedHashMap<>();
        for (int i : train) {
            perDataset.merge(rows.get(i).dataset(), 1, Integer::sum);
        }
        int d = DIM + 1;
        double[][] a = new double[d][d];
        double[] b = new double[d];
        for (int i : train) {
            double weight = (double) train.size() / (perDataset.size() * perDataset.get(rows.get(i).dataset()));
            double[] row = new double[d];
            for (int k = 0; k < DIM; k++) {
                row[k] = x[i][k];
            }
            row[DIM] = 1;
            for (int p = 0; p < d; p++) {
                double wp = weight * row[p];
                for (int q = p; q < d; q++) {
                    a[p][q] += wp * row[q];
                }
                b[p] += wp * target[i];
            }
        }
        for (int p = 0; p < d; p++) {
            for (int q = 0; q < p; q++) {
                a[p][q] = a[q][p];
            }
            if (p < DIM) {
                a[p][p] += lambda;
            }
        }
        return NormalEquations.solve(a, b);
    }

    private static String padding(EmbeddingModel model, List<Row> rows, float[][] x, double[] gap) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            all.add(i);
        }
        double[] w = ridge(rows, x, all, gap, 10);
        List<Integer> sample = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).dataset().equals("arena")) {
                sample.add(i);
            }
        }
        double[] base = sample.stream().mapToDouble(i -> predict(w, x[i])).toArray();
        double[] sorted = base.clone();
        Arrays.sort(sorted);
        StringBuilder out = new StringBuilder("## Padding (the arena questions; ridge λ=10 on every row)\n\n"
                + "Shift in percentiles of the unpadded scores: median / p95 / max.\n\n"
                + "| padding | median | p95 | max |\n|---|---|---|---|\n");
        for (Map.Entry<String, java.util.function.UnaryOperator<String>> pad
                : ComplexityExperiment.PADDINGS.entrySet()) {
            double[] shifts = new double[sample.size()];
            for (int k = 0; k < sample.size(); k++) {
                float[] v = model.embed(pad.getValue().apply(rows.get(sample.get(k)).prompt())).content().vector();
                shifts[k] = Math.abs(ComplexityExperiment.percentile(sorted, predict(w, v))
                        - ComplexityExperiment.percentile(sorted, base[k]));
            }
            Arrays.sort(shifts);
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f |%n", pad.getKey(),
                    shifts[shifts.length / 2], shifts[(int) (shifts.length * 0.95)], shifts[shifts.length - 1]));
        }
        return out.toString();
    }
}
