package dev.zerolayer.bench.replay;

import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import java.util.List;

/**
 * llm-d-style predicted-latency baseline without tier rules: the baselines' static tier, then the tier's live node with
 * the lowest predicted TTFT (routing-core's per-node model: queue, uncached prefix, busy share, learned online); one
 * node, no bypass, no breaker. Shows what predicted latency gains without ZeroLayer's tier rules.
 */
public final class PredictedLatencyPolicy implements RoutingPolicy {

    private final TtftLearning learning = new TtftLearning();

    @Override
    public String name() {
        return "predicted-latency";
    }

    @Override
    public Route route(SimRequest request, RouterView view) {
        String tier = TierChoice.of(view.policy(), request.contextTokens(), request.complexity());
        List<Integer> pool = TierChoice.pool(view, tier);
        if (pool.isEmpty()) {
            return new Route(tier, List.of(), null);
        }
        DecisionInput input = new DecisionInput(request.contextTokens(), request.complexity(), null, null,
                request.blocks().length);
        int best = -1;
        double bestMs = Double.POSITIVE_INFINITY;
        for (int node : pool) {
            NodeCandidate candidate = learning.candidate(node, request, view);
            double ms = candidate.predictedTtftMs(input);
            if (ms < bestMs) {
                bestMs = ms;
                best = node;
            }
        }
        return new Route(tier, List.of(best), null);
    }

    @Override
    public Object attemptStarted(SimRequest request, int node, RouterView view) {
        return learning.attempt(request, node, view);
    }

    @Override
    public void firstByte(Object ticket, double seconds) {
        learning.firstByte((TtftLearning.Ticket) ticket, seconds);
    }

    @Override
    public void attemptAbandoned(Object ticket) {
        learning.abandoned((TtftLearning.Ticket) ticket);
    }

    @Override
    public Metrics.PredictionError predictionError() {
        return learning.error();
    }
}
