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
}
