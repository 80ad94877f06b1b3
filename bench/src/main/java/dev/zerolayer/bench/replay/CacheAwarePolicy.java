package dev.zerolayer.bench.replay;

import java.util.List;

/**
 * SGLang router's cache-aware policy with its library defaults (cache threshold 0.5, balance thresholds 32 absolute and
 * 1.1 relative): when the tier's live nodes are imbalanced (most − least in-flight > 32 and most > 1.1 × least) the
 * least loaded; otherwise the node with the longest prefix match if it covers more than half the prompt, else the
 * node with the emptiest cache. Its prefix view is the nodes' actual KV contents (SGLang approximates them with a
 * radix tree of routed text). Ties go to the lower load, then fleet order.
 */
public final class CacheAwarePolicy implements RoutingPolicy {

    static final double CACHE_THRESHOLD = 0.5;
    static final int BALANCE_ABS = 32;
    static final double BALANCE_REL = 1.1;

    @Override
    public String name() {
        return "cache-aware";
    }

    @Override
    public Route route(SimRequest request, RouterView view) {
        String tier = TierChoice.of(view.policy(), request.contextTokens(), request.complexity());
        List<Integer> pool = TierChoice.pool(view, tier);
        if (pool.isEmpty()) {
            return new Route(tier, List.of(), null);
        }
        int most = Integer.MIN_VALUE;
        int leastLoad = Integer.MAX_VALUE;
        int leastNode = -1;
        for (int node : pool) {
            int load = view.inFlight(node);
            most = Math.max(most, load);
            if (load < leastLoad) {
                leastLoad = load;
                leastNode = node;
            }
        }
        if (most - leastLoad > BALANCE_ABS && most > BALANCE_REL * leastLoad) {
            return new Route(tier, List.of(leastNode), null);
        }
        int best = -1;
        double bestRate = -1;
        for (int node : pool) {
            double rate = request.contextTokens() == 0 ? 0.0
                    : (double) view.nodes().get(node).prefixBlocksHeld(request.blocks()) * SimRequest.BLOCK_TOKENS
                            / request.contextTokens();
            if (rate > bestRate || (rate == bestRate && view.inFlight(node) < view.inFlight(best))) {
                bestRate = rate;
                best = node;
            }
        }
        if (bestRate > CACHE_THRESHOLD) {
            return new Route(tier, List.of(best), null);
        }
        int emptiest = -1;
        for (int node : pool) {
            if (emptiest < 0) {
                emptiest = node;
                continue;
            }
            int size = view.nodes().get(node).cachedBlocks();
            int other = view.nodes().get(emptiest).cachedBlocks();
            if (size < other || (size == other && view.inFlight(node) < view.inFlight(emptiest))) {
                emptiest = node;
            }
        }
        return new Route(tier, List.of(emptiest), null);
    }
}
