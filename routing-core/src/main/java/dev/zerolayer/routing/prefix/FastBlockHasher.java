package dev.zerolayer.routing.prefix;

/**
 * The default prefix hashing for simulated nodes and the router: each block's 64-bit hash mixes its parent hash and its
 * tokens (multiply-xorshift per token, murmur3's 64-bit finaliser per block), seeded, non-cryptographic and allocation
 * free.
 */
public final class FastBlockHasher implements BlockHasher {

    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private final int blockSize;
    private final long seed;

    public FastBlockHasher(int blockSize, long seed) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be >= 1");
        }
        this.blockSize = blockSize;
        this.seed = seed;
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long[] hashChain(int[] tokens) {
        int blocks = tokens.length / blockSize;
        long[] chain = new long[blocks];
        long parent = fmix64(seed ^ MULTIPLIER);
        for (int b = 0; b < blocks; b++) {
            long h = parent;
            for (int t = b * blockSize, end = t + blockSize; t < end; t++) {
                h = (h ^ (tokens[t] & 0xffffffffL)) * MULTIPLIER;
                h ^= h >>> 29;
            }
            parent = fmix64(h ^ blockSize);
            chain[b] = parent;
        }
        return chain;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
