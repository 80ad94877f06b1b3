package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/**
 * Reads the shared prompt sets by path (never copied into the repository) and splits labelled rows into train and
 * eval deterministically: per dataset and label, a seeded shuffle, the first share to train.
 */
public final class PromptData {

    public static final String GSM8K = "routellm_gsm8k_weak_strong_correct_sample400.jsonl";
    public static final String MMLU = "routellm_mmlu_weak_strong_correct_sample500.jsonl";
    public static final String HUMANEVAL = "humaneval_prompts.jsonl";
    public static final String ARENA_HARD = "arena_hard_v0.1_question.jsonl";

    private PromptData() {
    }

    /** The RouteLLM rows of one file, labelled by the Mixtral-8x7B and GPT-4-1106 correctness columns. */
    public static List<LabelledPrompt> labelled(Path dir, String file, String dataset) {
        List<LabelledPrompt> rows = new ArrayList<>();
        int line = 0;
        for (JsonNode node : jsonLines(dir.resolve(file))) {
            line++;
            String id = node.has("row_index") ? node.get("row_index").asString()
                    : node.path("subject").asString() + "#" + node.path("row_index_in_subject_csv").asString();
            rows.add(new LabelledPrompt(dataset, id.isEmpty() ? String.valueOf(line) : id,
                    node.get("prompt").asString(), node.get("mixtral_8x7b_correct").asBoolean(),
                    node.get("gpt4_1106_correct").asBoolean()));
        }
        return rows;
    }

    /** The prompts of an unlabelled file (field {@code prompt}). */
    public static List<String> prompts(Path dir, String file) {
        List<String> prompts = new ArrayList<>();
        for (JsonNode node : jsonLines(dir.resolve(file))) {
            prompts.add(node.get("prompt").asString());
        }
        return prompts;
    }

    /** Train/eval split of one dataset: stratified by label, seeded, {@code trainShare} of each label to train. */
    public static Split split(List<LabelledPrompt> rows, double trainShare, long seed) {
        List<LabelledPrompt> train = new ArrayList<>();
        List<LabelledPrompt> eval = new ArrayList<>();
        for (boolean label : new boolean[] {true, false}) {
            List<LabelledPrompt> group = new ArrayList<>(rows.stream().filter(r -> r.needsStrong() == label).toList());
            java.util.Collections.shuffle(group, new Random(seed));
            int cut = (int) Math.round(group.size() * trainShare);
            train.addAll(group.subList(0, cut));
            eval.addAll(group.subList(cut, group.size()));
        }
        return new Split(List.copyOf(train), List.copyOf(eval));
    }

    /** Rows for fitting and rows held out for evaluation. */
    public record Split(List<LabelledPrompt> train, List<LabelledPrompt> eval) {
    }

    private static List<JsonNode> jsonLines(Path file) {
        try {
            List<JsonNode> nodes = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    nodes.add(EventCodec.mapper().readTree(line));
                }
            }
            return nodes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
