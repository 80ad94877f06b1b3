package dev.zerolayer.cache.lookup;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.prefix.BlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A conversation's prefix as the index sees it: its token ids (system text, then each message's text, concatenated as
 * the nodes do), its full blocks hashed with the nodes' hasher, and per node the leading blocks held without a gap.
 */
public final class PrefixLookup {

    private final TokenCounter tokens;
    private final BlockHasher hasher;
    private final BlockIndex index;

    public PrefixLookup(TokenCounter tokens, BlockHasher hasher, BlockIndex index) {
        this.tokens = tokens;
        this.hasher = hasher;
        this.index = index;
    }

    public Result lookup(Conversation conversation) {
        int[] ids = tokens.encode(conversation).ids();
        long[] chain = hasher.hashChain(ids);
        Map<String, Integer> held = index.leadingBlocks(chain);
        List<NodeOverlap> nodes = held.entrySet().stream()
                .map(e -> new NodeOverlap(e.getKey(), e.getValue(),
                        chain.length == 0 ? 0.0 : (double) e.getValue() / chain.length))
                .sorted(Comparator.comparingInt(NodeOverlap::leadingBlocks).reversed()
                        .thenComparing(NodeOverlap::node))
                .toList();
        return new Result(ids.length, hasher.blockSize(), chain.length, nodes);
    }

    /** The prompt's tokens (texts only), block size, full blocks, and the nodes holding a leading part, best first. */
    public record Result(int promptTokens, int blockSize, int promptBlocks, List<NodeOverlap> nodes) {
    }

    /** One node's unbroken leading overlap with the prompt, in blocks and as a share of the prompt's blocks. */
    public record NodeOverlap(String node, int leadingBlocks, double share) {
    }
}
