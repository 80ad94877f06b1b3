package dev.zerolayer.bench.replay;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Round-robin over the tier's live nodes, one counter per tier. */
public final class RoundRobinPolicy implements RoutingPolicy {

    private final Map<String, Integer> next = new HashMap<>();

    @Override
    public String name() {
        return "round-robin";
    }

    @Override
    public Route route(SimRequest request, RouterView view) {
        String tier = TierChoice.of(view.policy(), request.contextTokens(), request.complexity());
        List<Integer> pool = TierChoice.pool(view, tier);
        if (pool.isEmpty()) {
            return new Route(tier, List.of(), null);
        }
        int counter = next.getOrDefault(tier, 0);
        next.put(tier, counter + 1);
        return new Route(tier, List.of(pool.get(Math.floorMod(counter, pool.size()))), null);
    }
}
