package dev.zerolayer.contracts.telemetry;

import dev.zerolayer.contracts.event.InvalidEventException;
import java.util.Set;

/**
 * How a node's engine cuts prompts into KV blocks and hashes them, so the router computes the same block hashes: the
 * served model's tokenizer files (a directory path or a URL holding {@code tokenizer.json}, or {@code vocab.json} +
 * {@code merges.txt}, with {@code tokenizer_config.json} for the chat template; null: the router's default counting),
 * the block size, the hash ({@value #VLLM_SHA256_CBOR} as vLLM's {@code --prefix-caching-hash-algo sha256_cbor} with
 * integer event hashes, or {@value #ZEROLAYER_FAST}, the simulator's chain) and its seed (vLLM's
 * {@code PYTHONHASHSEED}; without one a vLLM node's hashes are random per process and nothing can match them).
 */
public record PrefixCaching(String tokenizer, int blockSize, String hashAlgorithm, String hashSeed) {

    /** vLLM's sha256 over canonical CBOR, the low 64 bits as the event's integer hash. */
    public static final String VLLM_SHA256_CBOR = "sha256_cbor";
    /** The simulated nodes' fast chain (seed: a decimal long). */
    public static final String ZEROLAYER_FAST = "zerolayer_fast";
    /** Hashes the router can compute. */
    public static final Set<String> ALGORITHMS = Set.of(VLLM_SHA256_CBOR, ZEROLAYER_FAST);

    public PrefixCaching {
        if (tokenizer != null && (tokenizer.isBlank() || tokenizer.length() > 2048)) {
            throw new InvalidEventException("prefixCache.tokenizer must be a path or URL of 1-2048 characters");
        }
        if (blockSize < 1 || blockSize > 4096) {
            throw new InvalidEventException("prefixCache.blockSize must be 1-4096, was " + blockSize);
        }
        if (hashAlgorithm == null || !ALGORITHMS.contains(hashAlgorithm)) {
            throw new InvalidEventException("prefixCache.hashAlgorithm must be one of " + ALGORITHMS + ", was "
                    + hashAlgorithm);
        }
        if (hashSeed != null && hashSeed.length() > 256) {
            throw new InvalidEventException("prefixCache.hashSeed must be at most 256 characters");
        }
        if (ZEROLAYER_FAST.equals(hashAlgorithm)) {
            try {
                Long.parseLong(hashSeed == null ? "0" : hashSeed);
            } catch (NumberFormatException e) {
                throw new InvalidEventException("prefixCache.hashSeed of " + ZEROLAYER_FAST + " must be a long");
            }
        }
    }

    /** Whether block hashes of this node can be computed by anyone else (a vLLM hash needs a fixed seed). */
    public boolean reproducible() {
        return !VLLM_SHA256_CBOR.equals(hashAlgorithm) || hashSeed != null;
    }
}
