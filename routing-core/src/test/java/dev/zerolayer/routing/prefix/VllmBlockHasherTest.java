package dev.zerolayer.routing.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * vLLM-mode hashes equal real ones captured from vLLM (Qwen3-0.6B, block size 16, sha256_cbor, PYTHONHASHSEED=42,
 * integer block hashes), with and without a LoRA extra key. Fixture: the first 48 token ids and 3 block hashes of the
 * BlockStored events in llm-d-kv-cache-manager's kv_event_base.json and kv_event_lora.json.
 */
class VllmBlockHasherTest {

    private static final int[] TOKENS = {2082, 1113, 2142, 374, 264, 4948, 19128, 323, 7203, 429, 374, 66351, 938, 315,
            11198, 323, 59415, 678, 90505, 11, 54263, 533, 7586, 315, 28922, 13, 1527, 1113, 2142, 6738, 369, 279,
            75345, 315, 279, 1584, 11, 892, 432, 9982, 311, 387, 25165, 11, 76244, 11, 323, 27756};

    @Test
    void reproducesCapturedVllmHashes() {
        long[] chain = new VllmBlockHasher(16, "42", null).hashChain(TOKENS);
        assertThat(Arrays.stream(chain).mapToObj(Long::toUnsignedString).toList())
                .containsExactly("17705339885301241772", "13360521540053240825", "1652464311825922890");
    }

    @Test
    void reproducesCapturedVllmHashesWithALoraExtraKey() {
        long[] chain = new VllmBlockHasher(16, "42", List.of("Alice")).hashChain(TOKENS);
        assertThat(Arrays.stream(chain).mapToObj(Long::toUnsignedString).toList())
                .containsExactly("9643097150530800701", "11170191873018355659", "6527130464540768062");
    }

    @Test
    void anotherSeedGivesOtherHashesAndAPartialBlockGetsNone() {
        long[] seeded = new VllmBlockHasher(16, "42", null).hashChain(TOKENS);
        long[] other = new VllmBlockHasher(16, "7", null).hashChain(TOKENS);
        assertThat(other[0]).isNotEqualTo(seeded[0]);
        assertThat(new VllmBlockHasher(16, "42", null).hashChain(Arrays.copyOf(TOKENS, 47))).hasSize(2);
    }

    @Test
    void rememberedLeadingBlocksGiveTheSameChainAsHashingEverything() {
        VllmBlockHasher remembering = new VllmBlockHasher(16, "42", null);
        int[] firstTwo = Arrays.copyOf(TOKENS, 32);
        int[] diverging = TOKENS.clone();
        diverging[40] = 7;
        int[] longer = Arrays.copyOf(TOKENS, 64);
        longer[50] = 1234;

        long[] prefix = remembering.hashChain(firstTwo);
        long[] whole = remembering.hashChain(TOKENS);
        long[] other = remembering.hashChain(diverging);
        long[] again = remembering.hashChain(TOKENS);
        long[] grown = remembering.hashChain(longer);

        assertThat(prefix).containsExactly(new VllmBlockHasher(16, "42", null).hashChain(firstTwo));
        assertThat(Arrays.stream(whole).mapToObj(Long::toUnsignedString).toList())
                .containsExactly("17705339885301241772", "13360521540053240825", "1652464311825922890");
        assertThat(other).containsExactly(new VllmBlockHasher(16, "42", null).hashChain(diverging));
        assertThat(other[2]).isNotEqualTo(whole[2]);
        assertThat(again).containsExactly(whole);
        assertThat(grown).containsExactly(new VllmBlockHasher(16, "42", null).hashChain(longer));
    }
}
