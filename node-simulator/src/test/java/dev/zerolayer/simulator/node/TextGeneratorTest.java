package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Generated text is one cl100k token per piece, so output token counts are exact, and it is fixed by its seed. */
class TextGeneratorTest {

    private final TextGenerator generator = new TextGenerator();
    private final PromptTokenizer tokenizer = PromptTokenizer.shared();

    @Test
    void everyPieceIsExactlyOneToken() {
        for (String word : TextGenerator.VOCABULARY) {
            String capital = Character.toUpperCase(word.charAt(0)) + word.substring(1);
            assertThat(tokenizer.count(" " + word)).as(word).isEqualTo(1);
            assertThat(tokenizer.count(" " + capital)).as(capital).isEqualTo(1);
            assertThat(tokenizer.count(capital)).as(capital).isEqualTo(1);
        }
        // and no two neighbouring pieces merge: the whole text has as many tokens as pieces
        for (long seed = 0; seed < 200; seed++) {
            String[] pieces = generator.pieces(new SplittableRandom(seed), 1 + (int) (seed * 7 % 400));
            assertThat(tokenizer.count(TextGenerator.text(pieces))).as("seed %d", seed).isEqualTo(pieces.length);
        }
    }

    @Test
    void theSameSeedGivesTheSameTextAndAnotherSeedAnother() {
        String a = TextGenerator.text(generator.pieces(new SplittableRandom(42), 60));
        String b = TextGenerator.text(generator.pieces(new SplittableRandom(42), 60));
        String c = TextGenerator.text(generator.pieces(new SplittableRandom(43), 60));

        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        assertThat(a).matches("[A-Z][a-z]+( [A-Za-z]+|\\.)+");
        assertThat(a).contains(".");
    }
}
