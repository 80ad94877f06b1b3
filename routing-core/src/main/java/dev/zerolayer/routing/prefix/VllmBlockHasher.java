package dev.zerolayer.routing.prefix;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * vLLM's {@code sha256_cbor} prefix hashing: the first parent is sha256 of the canonical-CBOR hash seed string, each
 * block hash is sha256 of canonical CBOR {@code [parent hash bytes, [token ids], extra keys or null]}, and the event hash
 * is its low 64 bits (as with {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES}). A block's hash depends only on the blocks
 * before it, so the hasher remembers its last {@value #REMEMBERED} chains by their first block and hashes only the
 * blocks after the leading ones a new sequence shares with the remembered one (a session's next request, another
 * session with the same system prompt).
 */
public final class VllmBlockHasher implements BlockHasher {

    /** Chains remembered (by their first block's tokens; a later chain with the same first block replaces one). */
    static final int REMEMBERED = 512;

    private final int blockSize;
    private final byte[] rootParent;
    private final List<String> extraKeys;
    private final java.util.Map<Long, Remembered> remembered = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, Remembered> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** A chain hashed before: its full blocks' tokens and each block's whole sha256 (the next block's parent). */
    private record Remembered(int[] tokens, byte[][] hashes) {
    }

    /**
     * @param hashSeed  the node's {@code PYTHONHASHSEED} (hashes only agree across processes when it is set)
     * @param extraKeys extra keys hashed into every block (for example a LoRA adapter name), or null
     */
    public VllmBlockHasher(int blockSize, String hashSeed, List<String> extraKeys) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be >= 1");
        }
        this.blockSize = blockSize;
        this.extraKeys = extraKeys == null ? null : List.copyOf(extraKeys);
        this.rootParent = sha256(new CanonicalCbor(hashSeed.length() + 2).writeText(hashSeed).toByteArray());
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public long[] hashChain(int[] tokens) {
        int blocks = tokens.length / blockSize;
        long[] chain = new long[blocks];
        if (blocks == 0) {
            return chain;
        }
        long key = firstBlockKey(tokens);
        Remembered before;
        synchronized (remembered) {
            before = remembered.get(key);
        }
        int shared = before == null ? 0 : sharedBlocks(tokens, blocks, before);
        byte[][] hashes = new byte[blocks][];
        for (int b = 0; b < shared; b++) {
            hashes[b] = before.hashes()[b];
            chain[b] = low64(hashes[b]);
        }
        byte[] parent = shared == 0 ? rootParent : hashes[shared - 1];
        for (int b = shared; b < blocks; b++) {
            CanonicalCbor cbor = new CanonicalCbor(48 + blockSize * 5).startArray(3).writeBytes(parent)
                    .startArray(blockSize);
            for (int t = b * blockSize, end = t + blockSize; t < end; t++) {
                cbor.writeInt(tokens[t]);
            }
            cbor.writeTextArrayOrNull(extraKeys);
            parent = sha256(cbor.toByteArray());
            hashes[b] = parent;
            chain[b] = low64(parent);
        }
        if (shared < blocks) {
            Remembered now = new Remembered(java.util.Arrays.copyOf(tokens, blocks * blockSize), hashes);
            synchronized (remembered) {
                remembered.put(key, now);
            }
        }
        return chain;
    }

    /** How many leading full blocks {@code tokens} shares with a remembered chain. */
    private int sharedBlocks(int[] tokens, int blocks, Remembered before) {
        int limit = Math.min(blocks, before.hashes().length);
        int b = 0;
        while (b < limit && java.util.Arrays.equals(tokens, b * blockSize, (b + 1) * blockSize, before.tokens(),
                b * blockSize, (b + 1) * blockSize)) {
            b++;
        }
        return b;
    }

    /** A 64-bit fingerprint of the first block's tokens (the remembered chain is compared token by token anyway). */
    private long firstBlockKey(int[] tokens) {
        long h = 0x9E3779B97F4A7C15L;
        for (int t = 0; t < blockSize; t++) {
            h = (h ^ tokens[t]) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h;
    }

    private static long low64(byte[] hash) {
        long value = 0;
        for (int i = hash.length - 8; i < hash.length; i++) {
            value = (value << 8) | (hash[i] & 0xff);
        }
        return value;
    }

    private static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
