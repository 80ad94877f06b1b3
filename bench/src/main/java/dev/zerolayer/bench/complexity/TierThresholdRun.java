package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.thresholds.ThresholdSearch;
import dev.zerolayer.routing.thresholds.TierMix;
import dev.zerolayer.routing.thresholds.TierThresholds;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tier thresholds a complexity model needs so that, on a mixed prompt set (the GSM8K and MMLU samples, HumanEval,
 * Arena-Hard and arena-bench-v1), the default policy's tier mix is the one the lexical model (the previous default) gives at the policy's own
 * thresholds; found by the baseline endpoint's {@link ThresholdSearch}, with each dataset's mix under both.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.zerolayer.bench.complexity.TierThresholdRun [--data DIR] [--model FILE]
 * </pre>
 * Without {@code --model}, the built-in (learned) model shipped in routing-core. Writes {@code bench/target/tier-thresholds.md}.
 */
public final class TierThresholdRun {

    private TierThresholdRun() {
    }

    public static void main(String[] args) throws IOException {
        Path data = Path.of("../shared/data/prompts");
        ComplexityModel candidate = ComplexityModels.builtIn();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Path.of(args[++i]);
                case "--model" -> candidate = ComplexityModels.fromJson(Files.readAllBytes(Path.of(args[++i])));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Map<String, List<String>> sets = new LinkedHashMap<>();
        sets.put("gsm8k (sample 400)", PromptData.labelled(data, PromptData.GSM8K, "gsm8k").stream()
                .map(LabelledPrompt::prompt).toList());
        sets.put("mmlu (sample 500)", PromptData.labelled(data, PromptData.MMLU, "mmlu").stream()
                .map(LabelledPrompt::prompt).toList());
        sets.put("humaneval", PromptData.prompts(data, PromptData.HUMANEVAL));
        sets.put("arena-hard", PromptData.prompts(data, PromptData.ARENA_HARD));
        sets.put("arena-bench-v1", ComplexityExperiment.arena(data).stream().map(ComplexityExperiment.Row::prompt)
                .toList());
        List<String> prompts = new ArrayList<>();
        sets.values().forEach(prompts::addAll);

        PolicyDocument policy = PolicyDocument.defaults();
        TokenCounter counter = TokenCounter.defaultCounter();
        int[] tokens = prompts.stream().mapToInt(p -> counter.count(Conversation.ofUser(p))).toArray();
        ComplexityScorer builtIn = ComplexityScorer.withModel(ComplexityModels.lexical());
        ComplexityScorer learned = ComplexityScorer.withModel(candidate);
        double[] builtInScores = prompts.stream().mapToDouble(p -> builtIn.scoreValue(Conversation.ofUser(p)))
                .toArray();
        double[] learnedScores = prompts.stream().mapToDouble(p -> learned.scoreValue(Conversation.ofUser(p)))
                .toArray();
        Map<String, Double> target = TierMix.of(policy, tokens, builtInScores);
        Map<String, Double> atDefault = TierMix.of(policy, tokens, learnedScores);
        ThresholdSearch.Result found = ThresholdSearch.search(policy, tokens, learnedScores, target);
        PolicyDocument derived = TierThresholds.withThresholds(policy, found.thresholds());

        StringBuilder md = new StringBuilder("# Tier thresholds for ").append(candidate.modelVersion())
                .append("\n\n").append(prompts.size()).append(" prompts; default policy, thresholds ")
                .append(TierThresholds.thresholds(policy)).append(".\n\n")
                .append("| scorer | thresholds | tier mix (haiku / sonnet / opus) |\n|---|---|---|\n")
                .append(row("lexical " + builtIn.modelVersion(), TierThresholds.thresholds(policy), target))
                .append(row(candidate.modelVersion() + " at the default thresholds",
                        TierThresholds.thresholds(policy), atDefault))
                .append(row(candidate.modelVersion() + " at the derived thresholds", found.thresholds(),
                        found.mix()))
                .append(String.format(Locale.ROOT, "%nLargest |share − target|: %.4f.%n%n", found.maxDeviation()))
                .append("Per dataset, haiku / sonnet / opus share:\n\n| dataset | lexical | learned (default "
                        + "thresholds) | learned (derived) |\n|---|---|---|---|\n");
        int start = 0;
        for (Map.Entry<String, List<String>> set : sets.entrySet()) {
            int end = start + set.getValue().size();
            int[] t = java.util.Arrays.copyOfRange(tokens, start, end);
            md.append("| ").append(set.getKey()).append(" (").append(end - start).append(") | ")
                    .append(mix(TierMix.of(policy, t, java.util.Arrays.copyOfRange(builtInScores, start, end))))
                    .append(" | ")
                    .append(mix(TierMix.of(policy, t, java.util.Arrays.copyOfRange(learnedScores, start, end))))
                    .append(" | ")
                    .append(mix(TierMix.of(derived, t, java.util.Arrays.copyOfRange(learnedScores, start, end))))
                    .append(" |\n");
            start = end;
        }
        md.append(anchors(policy, counter, builtIn, learned));
        Path out = Path.of(Files.isDirectory(Path.of("bench")) ? "bench/target" : "target", "tier-thresholds.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
        System.out.println(md);
    }

    /**
     * The tier mix per category of the calibration anchors (everyday requests as well as work) at the default
     * thresholds; in-sample for a model whose score map was fitted on them.
     */
    private static String anchors(PolicyDocument policy, TokenCounter counter, ComplexityScorer lexical,
            ComplexityScorer learned) {
        Map<String, List<Anchors.Anchor>> byCategory = new LinkedHashMap<>();
        Anchors.load().all().forEach(a -> byCategory.computeIfAbsent(a.category(), c -> new ArrayList<>()).add(a));
        StringBuilder md = new StringBuilder("\nCalibration anchors per category at the default thresholds (in-sample "
                + "for a score map fitted on them), haiku / sonnet / opus share:\n\n| category (anchors) | band | "
                + "lexical | learned |\n|---|---|---|---|\n");
        byCategory.forEach((category, anchors) -> {
            int[] tokens = anchors.stream().mapToInt(a -> counter.count(a.conversation())).toArray();
            md.append(String.format(Locale.ROOT, "| %s (%d) | %.2f | %s | %s |%n", category, anchors.size(),
                    anchors.get(0).target(), mix(TierMix.of(policy, tokens, anchors.stream()
                            .mapToDouble(a -> lexical.scoreValue(a.conversation())).toArray())),
                    mix(TierMix.of(policy, tokens, anchors.stream().mapToDouble(a -> learned.scoreValue(
                            a.conversation())).toArray()))));
        });
        return md.toString();
    }

    private static String row(String scorer, Map<String, Double> thresholds, Map<String, Double> mix) {
        return "| " + scorer + " | " + thresholds + " | " + mix(mix) + " |\n";
    }

    private static String mix(Map<String, Double> mix) {
        StringBuilder out = new StringBuilder();
        mix.values().forEach(share -> out.append(out.isEmpty() ? "" : " / ")
                .append(String.format(Locale.ROOT, "%.1f %%", 100 * share)));
        return out.toString();
    }
}
