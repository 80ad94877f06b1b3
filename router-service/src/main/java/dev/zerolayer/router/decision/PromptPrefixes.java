package dev.zerolayer.router.decision;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.prefix.BlockHasher;
import dev.zerolayer.routing.prefix.PrefixOverlap;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A prompt's leading KV blocks (at most {@code maxBlocks}, hashed as the nodes hash them) and, from the
 * {@code cache.kv-index.v1} view, how many of them each node holds without a gap.
 */
public final class PromptPrefixes {

    private final CompactedView<KvIndexEntry> index;
    private final BlockHasher hasher;
    private final int maxBlocks;
    private final boolean cacheAware;

    public PromptPrefixes(CompactedView<KvIndexEntry> index, BlockHasher hasher, int maxBlocks) {
        this(index, hasher, maxBlocks, true);
    }

    /** With {@code cacheAware} false the chain is still hashed (for decision events) but no node is credited. */
    public PromptPrefixes(CompactedView<KvIndexEntry> index, BlockHasher hasher, int maxBlocks, boolean cacheAware) {
        this.index = index;
        this.hasher = hasher;
        this.maxBlocks = maxBlocks;
        this.cacheAware = cacheAware;
    }

    /** Whether prefix overlap and session stickiness count in node scores. */
    public boolean cacheAware() {
        return cacheAware;
    }

    public Lookup lookup(int[] tokenIds) {
        int limit = (int) Math.min(tokenIds.length, (long) maxBlocks * hasher.blockSize());
        int[] head = limit == tokenIds.length ? tokenIds : Arrays.copyOf(tokenIds, limit);
        long[] chain = hasher.hashChain(head);
        if (!cacheAware || chain.length == 0 || index.size() == 0) {
            return new Lookup(chain, Map.of());
        }
        return new Lookup(chain, PrefixOverlap.leadingBlocks(chain, this::holders));
    }

    private List<String> holders(long blockHash) {
        return index.get(Long.toUnsignedString(blockHash)).map(KvIndexEntry::nodes).orElse(null);
    }

    /** The prompt's block chain and the leading blocks each node holds (absent: none). */
    public record Lookup(long[] chain, Map<String, Integer> leadingBlocksHeld) {
    }
}
