package dev.zerolayer.routing.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Equal prefixes give equal chains, a change in a block changes it and every later hash, and hashes do not collide. */
class FastBlockHasherTest {

    private final BlockHasher hasher = new FastBlockHasher(16, 7);

    private static int[] tokens(int n, long seed) {
        Random random = new Random(seed);
        return random.ints(n, 0, 100_000).toArray();
    }

    @Test
    void equalPrefixesShareTheirChainUntilTheyDiffer() {
        int[] a = tokens(100, 1);
        int[] b = Arrays.copyOf(a, 100);
        b[40] = b[40] + 1; // block 2 (tokens 32..47) differs

        long[] chainA = hasher.hashChain(a);
        long[] chainB = hasher.hashChain(b);

        assertThat(chainA).hasSize(6);
        assertThat(BlockHasher.sharedPrefixBlocks(chainA, chainB)).isEqualTo(2);
        for (int i = 2; i < 6; i++) {
            assertThat(chainB[i]).isNotEqualTo(chainA[i]);
        }
        assertThat(hasher.hashChain(Arrays.copyOf(a, 64))).containsExactly(Arrays.copyOf(chainA, 4));
    }

    @Test
    void theSameBlockUnderAnotherParentHashesDifferently() {
        int[] block = tokens(16, 3);
        int[] twice = new int[32];
        System.arraycopy(block, 0, twice, 0, 16);
        System.arraycopy(block, 0, twice, 16, 16);
        long[] chain = hasher.hashChain(twice);
        assertThat(chain[0]).isNotEqualTo(chain[1]);
        assertThat(new FastBlockHasher(16, 8).hashChain(block)[0]).isNotEqualTo(chain[0]);
    }

    @Test
    void aMillionBlocksDoNotCollide() {
        Set<Long> seen = new HashSet<>();
        long[] chain = hasher.hashChain(tokens(16 * 1_000_000, 11));
        for (long h : chain) {
            seen.add(h);
        }
        assertThat(seen).hasSize(chain.length);
    }
}
