package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Odd input never breaks the scorer: empty, whitespace, binary junk, mixed scripts, emoji floods and huge prompts all
 * give a finite score in [0,1]; emoji padding never lowers a score; huge prompts are read in bounded windows.
 */
class RobustnessTest {

    private static final ComplexityScorer SCORER = ComplexityScorer.defaultScorer();
    private static final String EMOJI = "😀🔥🚀✨🎉👍🏽❤️‍🔥";

    static Stream<String> prompts() {
        return Stream.of("make it better", "帮我弄得好一点", "Hi there!", "订单 #12345 为什么还没发货？",
                "根据附件财报，用三点总结 Q2 业绩", "这份租房合同第 7 条是否违反《民法典》第 509 条？", "写一首关于春天的七言绝句，押平水韵",
                "Solve 2x^2 + 3x - 5 = 0 and check both roots.",
                "Write a Python function that merges two sorted lists, with tests.",
                "First analyze option A, then compare it with option B, and finally give a recommendation.");
    }

    @Test
    void emptyAndWhitespaceScoreLowAndFinite() {
        for (Conversation c : List.of(new Conversation(null, null), Conversation.ofUser(""),
                Conversation.ofUser("   \n\t  \u3000 "), new Conversation("", List.of(Turn.assistant(""))))) {
            ComplexityScore score = SCORER.score(c);
            assertThat(score.score()).isBetween(0.0, 0.5);
            assertThat(score.features().get("length")).isZero();
        }
    }

    @Test
    void binaryJunkNeverThrowsAndStaysInRange() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            int length = random.nextInt(round < 250 ? 400 : 40_000);
            StringBuilder junk = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                junk.append((char) random.nextInt(0x10000));
            }
            ComplexityScore score = SCORER.score(new Conversation(junk.reverse().toString(),
                    List.of(Turn.user(junk.toString()), Turn.assistant(junk.substring(0, length / 2)),
                            Turn.user(junk.toString()))));
            assertThat(score.score()).isBetween(0.0, 1.0);
            assertThat(score.features().values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
        }
    }

    @Test
    void mixedScriptsAreReadAsContent() {
        String mixed = "Пожалуйста, explain 为什么 la fonction f(x)=x² est continue, και δώσε ένα παράδειγμα. "
                + "日本語のテキストも。한국어 문장도 있습니다.";
        ComplexityScore score = SCORER.score(mixed);
        assertThat(score.score()).isBetween(0.0, 1.0);
        assertThat(score.features().get("length")).isGreaterThan(0.3);
        assertThat(score.features().get("reasoning")).isGreaterThan(0.0);
    }

    @ParameterizedTest
    @MethodSource("prompts")
    void emojiPaddingNeverLowersTheScore(String prompt) {
        double plain = SCORER.score(prompt).score();
        String flood = EMOJI.repeat(100);
        List<String> padded = new ArrayList<>(List.of(flood + prompt, prompt + flood, flood + prompt + flood,
                String.join(EMOJI, prompt.split(" ")), EMOJI.repeat(10_000) + prompt + EMOJI.repeat(10_000)));
        for (String variant : padded) {
            assertThat(SCORER.score(variant).score()).as(variant.length() + " chars").isGreaterThanOrEqualTo(plain);
        }
    }

    @ParameterizedTest
    @MethodSource("prompts")
    void whitespaceAndControlPaddingNeverLowerTheScore(String prompt) {
        double plain = SCORER.score(prompt).score();
        assertThat(SCORER.score(" \n\t".repeat(500) + prompt + "\u200B\u0000\uFEFF".repeat(500)).score())
                .isGreaterThanOrEqualTo(plain);
    }

    @Test
    void aTwoHundredThousandTokenPromptIsScoredFromBoundedWindows() {
        String paragraph = "The committee reviewed the quarterly figures and agreed to revisit the budget next month. ";
        String huge = paragraph.repeat(11_000) + "Finally, summarize the decisions in a table.";
        assertThat(huge.length()).isGreaterThan(800_000);
        long start = System.nanoTime();
        ComplexityScore score = SCORER.score(huge);
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(score.features().get("length")).isEqualTo(1.0);
        assertThat(score.features().get("format")).isGreaterThan(0.0); // the tail window saw the last line
        assertThat(elapsedMillis).isLessThan(2_000); // generous: the windows are ~16k characters
    }

    @Test
    void scoresAreDeterministicAndTheScorerIsShareable() throws Exception {
        List<String> all = prompts().toList();
        double[] expected = all.stream().mapToDouble(p -> SCORER.score(p).score()).toArray();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < all.size(); i++) {
                        if (SCORER.score(all.get(i)).score() != expected[i]) {
                            failures.add(new AssertionError("score changed for " + all.get(i)));
                        }
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void scoreValueMatchesTheExplainedScore() {
        prompts().forEach(p -> assertThat(SCORER.scoreValue(Conversation.ofUser(p)))
                .isEqualTo(SCORER.score(p).score()));
    }
}
