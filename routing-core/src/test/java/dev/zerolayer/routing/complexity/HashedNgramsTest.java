package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Hashed words, word pairs and trigrams of the normalised text: padding with emoji or whitespace changes nothing. */
class HashedNgramsTest {

    private final HashedNgrams ngrams = new HashedNgrams(16);

    @Test
    void paddingWithEmojiSymbolsOrWhitespaceGivesTheSameVector() {
        HashedNgrams.Sparse plain = ngrams.features("Prove that the square root of 2 is irrational.");

        HashedNgrams.Sparse padded = ngrams.features("\uD83D\uDE00\uD83D\uDE80 ★★★\n\n  Prove   that the SQUARE root "
                + "of 2\tis irrational. \uD83D\uDE80\uD83D\uDE80");

        assertThat(padded.indices()).containsExactly(plain.indices());
        assertThat(padded.value()).isEqualTo(plain.value());
    }

    @Test
    void theVectorHasUnitLengthAndDistinctSortedBucketsWithinTheDimension() {
        HashedNgrams.Sparse features = ngrams.features("a b a b a b, then: x = y + 1");

        assertThat(features.indices()).isSorted().doesNotHaveDuplicates();
        assertThat(features.indices()[0]).isNotNegative();
        assertThat(features.indices()[features.indices().length - 1]).isLessThan(ngrams.dimension());
        assertThat(features.value() * features.value() * features.indices().length).isCloseTo(1.0,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ngrams.features("\uD83D\uDE00  ").indices()).isEmpty();
    }

    @Test
    void hanCharactersAreWordsOfTheirOwnSoChineseTextHasWordFeatures() {
        assertThat(HashedNgrams.normalise("证明 √2 是无理数！ \uD83D\uDE00")).isEqualTo("证明 √2 是无理数!");
        HashedNgrams.Sparse chinese = ngrams.features("证明根号二是无理数");
        HashedNgrams.Sparse shorter = ngrams.features("证明根号二");

        assertThat(chinese.indices()).contains(shorter.indices());
        assertThat(chinese.indices().length).isGreaterThan(shorter.indices().length);
    }

    @Test
    void aDotProductSumsTheWeightsOfItsBucketsScaled() {
        double[] weights = new double[ngrams.dimension()];
        HashedNgrams.Sparse features = ngrams.features("hello world");
        for (int index : features.indices()) {
            weights[index] = 2;
        }

        assertThat(features.dot(weights)).isCloseTo(2 * features.indices().length * features.value(),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThatThrownBy(() -> new HashedNgrams(30)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRequestPathDotProductEqualsTheSparseVectorsOnEveryText() {
        java.util.Random random = new java.util.Random(7);
        float[] weights = new float[ngrams.dimension()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = (float) random.nextGaussian();
        }
        double[] asDoubles = new double[weights.length];
        for (int i = 0; i < weights.length; i++) {
            asDoubles[i] = weights[i];
        }
        String alphabet = "ab 证明 x=1+2, \uD83D\uDE00\n";
        for (int round = 0; round < 200; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(round < 190 ? 300 : 20_000);
            for (int k = 0; k < length; k++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            double expected = ngrams.features(text.toString()).dot(asDoubles);
            assertThat(ngrams.dot(text.toString(), weights)).as(text.toString()).isCloseTo(expected,
                    org.assertj.core.data.Offset.offset(1e-9 * Math.max(1, Math.abs(expected))));
        }
        assertThatThrownBy(() -> ngrams.dot("x", new float[3])).isInstanceOf(IllegalArgumentException.class);
    }
}
