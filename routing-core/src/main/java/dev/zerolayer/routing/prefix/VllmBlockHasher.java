package dev.zerolayer.routing.prefix;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * vLLM's {@code sha256_cbor} prefix hashing: the first parent is sha256 of the canonical-CBOR hash seed string, each
 * block hash is sha256 of canonical CBOR {@code [parent hash bytes, [token ids], extra keys or null]}, and the event hash
 * is its low 64 bits (as with {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES}).
 */
public final class VllmBlockHasher implements BlockHasher {

    private final int blockSize;
    private final byte[] rootParent;
    private final List<String> extraKeys;

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
        byte[] parent = rootParent;
        for (int b = 0; b < blocks; b++) {
            CanonicalCbor cbor = new CanonicalCbor(48 + blockSize * 5).startArray(3).writeBytes(parent)
                    .startArray(blockSize);
            for (int t = b * blockSize, end = t + blockSize; t < end; t++) {
                cbor.writeInt(tokens[t]);
            }
            cbor.writeTextArrayOrNull(extraKeys);
            parent = sha256(cbor.toByteArray());
            chain[b] = low64(parent);
        }
        return chain;
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
