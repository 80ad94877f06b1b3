package dev.zerolayer.bench.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Labelled rows read from JSON lines; the split is stratified, disjoint and the same for the same seed. */
class PromptDataTest {

    @TempDir
    Path dir;

    @Test
    void readsTheRouteLlmColumnsAndSplitsDeterministically() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            lines.add(String.format("{\"row_index\": %d, \"prompt\": \"q%d\", \"mixtral_8x7b_correct\": %b, "
                    + "\"gpt4_1106_correct\": %b}", i, i, i % 5 != 0, true));
        }
        Files.write(dir.resolve("small.jsonl"), lines);
        List<LabelledPrompt> rows = PromptData.labelled(dir, "small.jsonl", "toy");
        assertThat(rows).hasSize(50);
        assertThat(rows.stream().filter(LabelledPrompt::needsStrong)).hasSize(10);

        PromptData.Split a = PromptData.split(rows, 0.6, 42);
        PromptData.Split b = PromptData.split(rows, 0.6, 42);
        assertThat(a).isEqualTo(b);
        assertThat(a.train()).hasSize(30);
        assertThat(a.train().stream().filter(LabelledPrompt::needsStrong)).hasSize(6);
        Set<String> trainIds = new HashSet<>();
        a.train().forEach(r -> trainIds.add(r.id()));
        assertThat(a.eval()).noneMatch(r -> trainIds.contains(r.id()));
        assertThat(PromptData.split(rows, 0.6, 43)).isNotEqualTo(a);
    }

    @Test
    void theAnchorsParseIntoConversations() {
        Anchors anchors = Anchors.load();
        assertThat(anchors.all()).hasSizeGreaterThan(100);
        assertThat(anchors.all()).allSatisfy(a -> assertThat(a.target()).isBetween(0.0, 1.0));
        assertThat(Anchors.conversation("a ||| b ||| c").turns()).hasSize(3);
    }
}
