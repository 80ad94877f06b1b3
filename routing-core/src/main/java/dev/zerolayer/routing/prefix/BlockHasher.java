package dev.zerolayer.routing.prefix;

/**
 * Cuts a token sequence into full blocks of {@link #blockSize()} tokens and hashes each block chained on its parent, so
 * equal prefixes give equal hash chains on router, nodes and registry; a partial tail block gets no hash.
 */
public interface BlockHasher {

    int blockSize();

    /** The chained 64-bit hash of every full block of {@code tokens}, in order. */
    long[] hashChain(int[] tokens);

    /** How many leading blocks two chains share. */
    static int sharedPrefixBlocks(long[] a, long[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }
}
