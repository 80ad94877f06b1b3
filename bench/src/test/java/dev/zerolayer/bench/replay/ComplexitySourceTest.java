package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.routing.complexity.ComplexityScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComplexitySourceTest {

    @Test
    void empiricalDrawIsTheInverseCdfOfTheScores() {
        ComplexitySource source = ComplexitySource.empirical(new double[] {0.9, 0.1, 0.5, 0.3}, "test");
        assertThat(source.empirical()).isTrue();
        assertThat(source.draw(0.0, 10)).isEqualTo(0.1);
        assertThat(source.draw(0.26, 10)).isEqualTo(0.3);
        assertThat(source.draw(0.5, 99_999)).as("length plays no part").isEqualTo(0.5);
        assertThat(source.draw(0.999, 10)).isEqualTo(0.9);
    }

    @Test
    void theFormulaIsTheFallback() {
        ComplexitySource formula = ComplexitySource.formula(null);
        assertThat(formula.empirical()).isFalse();
        double length = Math.log(1 + 1023) / Math.log(2) / 15;
        assertThat(formula.draw(0.4, 1023)).isEqualTo(0.75 * 0.4 + 0.25 * length);
    }

    @Test
    void scoresEveryPromptOfTheFourFilesWithTheRealScorer(@TempDir Path dir) throws Exception {
        List<String> prompts = List.of("What is 2 + 2?", "Prove that there are infinitely many primes.",
                "def add(a, b):\n    \"\"\"Return a + b.\"\"\"\n", "Write a distributed consensus protocol in Rust.");
        for (int i = 0; i < ComplexitySource.FILES.size(); i++) {
            Files.writeString(dir.resolve(ComplexitySource.FILES.get(i)),
                    "{\"prompt\": \"" + prompts.get(i).replace("\\", "\\\\").replace("\"", "\\\"")
                            .replace("\n", "\\n") + "\"}\n");
        }
        ComplexitySource source = ComplexitySource.fromPrompts(dir);
        assertThat(source.empirical()).isTrue();
        assertThat(source.size()).isEqualTo(4);
        assertThat(source.description()).contains("4 real prompts");
        double[] expected = prompts.stream().mapToDouble(p -> ComplexityScorer.defaultScorer().score(p).score())
                .sorted().toArray();
        for (int i = 0; i < 4; i++) {
            assertThat(source.draw((i + 0.5) / 4, 100)).isEqualTo(expected[i]);
        }
    }

    @Test
    void aMissingDirectoryOrFileFallsBackAndSaysSo(@TempDir Path dir) {
        ComplexitySource absent = ComplexitySource.fromPrompts(dir.resolve("nope"));
        assertThat(absent.empirical()).isFalse();
        assertThat(absent.description()).contains("FALLBACK");
        ComplexitySource partial = ComplexitySource.fromPrompts(dir);
        assertThat(partial.empirical()).isFalse();
        assertThat(partial.description()).contains("missing");
    }
}
