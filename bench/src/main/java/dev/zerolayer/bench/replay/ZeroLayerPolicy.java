package dev.zerolayer.bench.replay;

import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RouteDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ZeroLayer's full decision: routing-core's {@link DecisionEngine} with the default policy over candidates built as
 * router-service's Fleet builds them (health state, score, load and queue from the last health record, the router's
 * own in-flight count and breaker) plus the prefix blocks each node holds from the KV index; the ranked nodes are tried
 * in order with bypass before the first byte.
 */
public final class ZeroLayerPolicy implements RoutingPolicy {

    private final DecisionEngine engine = new DecisionEngine();
    private final Map<String, Integer> fallbacks = new HashMap<>();

    @Override
    public String name() {
        return "zerolayer";
    }

    @Override
    public boolean bypass() {
        return true;
    }

    @Override
    public boolean breakers() {
        return true;
    }

    @Override
    public Route route(SimRequest request, RouterView view) {
        List<NodeCandidate> candidates = new ArrayList<>(view.size());
        Map<String, Integer> index = new HashMap<>();
        double now = view.now();
        for (int i = 0; i < view.size(); i++) {
            SimNode node = view.nodes().get(i);
            RouterView.Health health = view.health(i);
            index.put(node.id(), i);
            candidates.add(new NodeCandidate(node.id(), node.member().tier(), node.member().cluster(), health.state(),
                    health.score(), health.load(), health.queueDepth(), node.profile().capacity(), view.inFlight(i),
                    view.breaker(i).open(now), node.prefixBlocksHeld(request.blocks()), health.clusterLoadSpike()));
        }
        DecisionInput input = new DecisionInput(request.contextTokens(), request.complexity(), null, null,
                request.blocks().length);
        RouteDecision decision = engine.decide(input, candidates, view.policy());
        if (decision.fallbackReason() != null) {
            fallbacks.merge(decision.fallbackReason(), 1, Integer::sum);
        }
        List<Integer> ranked = decision.ranked().stream().map(index::get).toList();
        return new Route(decision.tier(), ranked, decision.fallbackReason());
    }

    /** How often each fallback reason fired. */
    public Map<String, Integer> fallbacks() {
        return Map.copyOf(fallbacks);
    }
}
