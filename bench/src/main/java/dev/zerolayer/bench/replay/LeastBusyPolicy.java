package dev.zerolayer.bench.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * LiteLLM's least-busy: the tier's live node with the fewest requests this router has in flight; ties drawn at random
 * (seeded).
 */
public final class LeastBusyPolicy implements RoutingPolicy {

    private final SplittableRandom random;

    public LeastBusyPolicy(long seed) {
        this.random = new SplittableRandom(Workload.mix(seed, 0x1EA5L, 0, 0));
    }

    @Override
    public String name() {
        return "least-busy";
    }

    @Override
    public Route route(SimRequest request, RouterView view) {
        String tier = TierChoice.of(view.policy(), request.contextTokens(), request.complexity());
        List<Integer> pool = TierChoice.pool(view, tier);
        if (pool.isEmpty()) {
            return new Route(tier, List.of(), null);
        }
        int least = Integer.MAX_VALUE;
        List<Integer> ties = new ArrayList<>();
        for (int node : pool) {
            int busy = view.inFlight(node);
            if (busy < least) {
                least = busy;
                ties.clear();
            }
            if (busy == least) {
                ties.add(node);
            }
        }
        return new Route(tier, List.of(ties.get(random.nextInt(ties.size()))), null);
    }
}
