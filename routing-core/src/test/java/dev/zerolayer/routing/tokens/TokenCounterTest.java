package dev.zerolayer.routing.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Real BPE counts, one shared encoding per name, safe under concurrent use, configurable per model alias. */
class TokenCounterTest {

    @Test
    void countsRealCl100kTokens() {
        TokenCounter counter = TokenCounter.defaultCounter();
        assertThat(counter.encoding()).isEqualTo("cl100k_base");
        assertThat(counter.count("hello world")).isEqualTo(2);
        assertThat(counter.count("tiktoken is great!")).isEqualTo(6);
        assertThat(counter.count("")).isZero();
        assertThat(counter.count((String) null)).isZero();
        assertThat(counter.count("你好，世界")).isPositive();
    }

    @Test
    void specialTokenTextCountsAsOrdinaryText() {
        assertThat(TokenCounter.defaultCounter().count("<|endoftext|>")).isGreaterThan(1);
    }

    @Test
    void eachEncodingIsLoadedOnceAndShared() {
        assertThat(TokenCounter.of("cl100k_base")).isSameAs(TokenCounter.defaultCounter());
        assertThat(TokenCounter.of(" cl100k_base ")).isSameAs(TokenCounter.defaultCounter());
        assertThat(TokenCounter.of("o200k_base")).isNotSameAs(TokenCounter.defaultCounter());
        assertThat(TokenCounter.of("o200k_base").encoding()).isEqualTo("o200k_base");
    }

    @Test
    void unknownEncodingsAreRefused() {
        assertThatThrownBy(() -> TokenCounter.of("nope_base")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope_base");
        assertThat(TokenCounter.isKnownEncoding("p50k_base")).isTrue();
        assertThat(TokenCounter.isKnownEncoding(null)).isFalse();
    }

    @Test
    void aConversationCountsItsMessagesPlusOverhead() {
        TokenCounter counter = TokenCounter.defaultCounter();
        Conversation conversation = new Conversation("You are terse.",
                List.of(Turn.user("hello world"), Turn.assistant("hi"), Turn.user("tiktoken is great!")));
        int expected = TokenCounter.TOKENS_PER_REPLY + 4 * TokenCounter.TOKENS_PER_MESSAGE
                + counter.count("You are terse.") + 2 + counter.count("hi") + 6;
        assertThat(counter.count(conversation)).isEqualTo(expected);
        assertThat(counter.count(new Conversation("", List.of()))).isEqualTo(TokenCounter.TOKENS_PER_REPLY);
    }

    @Test
    void countingIsThreadSafe() throws Exception {
        TokenCounter counter = TokenCounter.defaultCounter();
        String text = "The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。 ".repeat(200);
        int expected = counter.count(text);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) {
                results.add(pool.submit(() -> counter.count(text)));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theTableMapsModelAliasesToEncodings() {
        TokenizerTable table = new TokenizerTable("cl100k_base", Map.of("Opus", "o200k_base"));
        assertThat(table.encodingFor("opus")).isEqualTo("o200k_base");
        assertThat(table.encodingFor(" OPUS ")).isEqualTo("o200k_base");
        assertThat(table.encodingFor("haiku")).isEqualTo("cl100k_base");
        assertThat(table.encodingFor(null)).isEqualTo("cl100k_base");
        assertThat(table.counterFor("opus")).isSameAs(TokenCounter.of("o200k_base"));
        assertThat(TokenizerTable.defaults().counterFor("sonnet")).isSameAs(TokenCounter.defaultCounter());
        assertThatThrownBy(() -> new TokenizerTable("cl100k_base", Map.of("x", "bogus")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodingAConversationConcatenatesSystemThenTurnsAndCountsLikeCount() {
        TokenCounter counter = TokenCounter.defaultCounter();
        Conversation conversation = new Conversation("You are terse.",
                List.of(Turn.user("Hello there"), new Turn(dev.zerolayer.routing.complexity.Role.ASSISTANT, "Hi"),
                        Turn.user("Sum 2 and 2")));

        TokenCounter.Encoded encoded = counter.encode(conversation);

        int texts = counter.count("You are terse.") + counter.count("Hello there") + counter.count("Hi")
                + counter.count("Sum 2 and 2");
        assertThat(encoded.ids()).hasSize(texts);
        assertThat(encoded.tokenCount()).isEqualTo(counter.count(conversation));
        assertThat(counter.encode(Conversation.ofUser("Hello there")).ids())
                .isEqualTo(counter.encode(Conversation.ofUser("Hello there")).ids());
    }

    @Test
    void aLoneSurrogateIsCountedAsTheReplacementCharacterAndPairsAreLeftAlone() {
        TokenCounter counter = TokenCounter.defaultCounter();
        // a JSON string may carry "\ud800" alone: no UTF-8 text, so the tokenizer sees U+FFFD in its place
        String lone = "price \uD800 and \uDC00 end";
        assertThat(counter.count(lone)).isEqualTo(counter.count("price \uFFFD and \uFFFD end")).isPositive();
        assertThat(counter.encode(Conversation.ofUser(lone)).ids())
                .containsExactly(counter.encode(Conversation.ofUser("price \uFFFD and \uFFFD end")).ids());
        String pair = "smile \uD83D\uDE00 ok";
        assertThat(TokenCounter.wellFormed(pair)).isEqualTo(pair);
        assertThat(TokenCounter.shape(pair)).isZero();
        assertThat(TokenCounter.shape(lone)).isEqualTo(TokenCounter.MALFORMED);
    }

    @Test
    void aMegabyteWithoutSpacesIsCountedInBoundedWorkAndOrdinaryTextIsNeverCut() {
        TokenCounter counter = TokenCounter.defaultCounter();
        String ordinary = "The quick brown fox jumps over the lazy dog. ".repeat(50);
        assertThat(TokenCounter.hasLongRun(ordinary)).isFalse();
        assertThat(TokenCounter.pieces(ordinary)).containsExactly(ordinary);

        StringBuilder junk = new StringBuilder();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < 1_000_000; i++) {
            junk.append((char) ('a' + random.nextInt(26)));
        }
        String noSpaces = junk.toString();
        assertThat(TokenCounter.hasLongRun(noSpaces)).isTrue();
        assertThat(String.join("", TokenCounter.pieces(noSpaces))).isEqualTo(noSpaces);
        assertThat(TokenCounter.pieces(noSpaces)).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(256));
        // bounded: pieces of 256 characters each, so the count is linear in the length (a single BPE word of a
        // megabyte takes many seconds); the count itself is a real BPE count of the pieces
        int count = counter.count(noSpaces);
        assertThat(count).isBetween(100_000, 1_000_000);
        assertThat(counter.encode(Conversation.ofUser(noSpaces)).ids()).hasSize(count);
        String emoji = "\uD83D\uDE00".repeat(300);
        assertThat(String.join("", TokenCounter.pieces(emoji))).isEqualTo(emoji);
        assertThat(TokenCounter.pieces(emoji)).allSatisfy(p -> assertThat(Character.isLowSurrogate(p.charAt(0))).isFalse());
    }
}
