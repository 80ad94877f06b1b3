package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.CapacityDowngrade;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RouteDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ZeroLayer's full decision: routing-core's {@link DecisionEngine} over candidates built as router-service's Fleet
 * builds them (health state, score, load and queue from the last health record, the router's own in-flight count and
 * breaker) plus the prefix blocks each node holds from the KV index; the ranked nodes are tried in order with bypass
 * before the first byte. {@link #ZeroLayerPolicy()} runs the default policy; {@link #ttft()} the TTFT policy of issue
 * #31 ({@link #TTFT_SCORING}), with each node's TTFT model learned online from the attempts' first bytes.
 */
public final class ZeroLayerPolicy implements RoutingPolicy {

    /**
     * Issue #31's scoring, fixed before the run: predicted TTFT weighs most, prefix share and health a little (ties and
     * sick nodes); the {@code ttft_slo} filter with SLOs haiku 1 s, sonnet 1.5 s, opus 2.5 s (margin 25 %); capacity
     * downgrade on for complexity up to 0.6 (the tier table's sonnet bound), pinned requests kept.
     */
    public static final Scoring TTFT_SCORING = ttftScoring();

    private final DecisionEngine engine = new DecisionEngine();
    private final Map<String, Integer> fallbacks = new HashMap<>();
    private final String name;
    private final Scoring scoring;
    private final TtftLearning learning;
    private PolicyDocument policy;

    /** Today's default policy, no TTFT model. */
    public ZeroLayerPolicy() {
        this("zerolayer", null, null);
    }

    private ZeroLayerPolicy(String name, Scoring scoring, TtftLearning learning) {
        this.name = name;
        this.scoring = scoring;
        this.learning = learning;
    }

    /** Issue #31's policy: predicted TTFT scorer, SLO filter, capacity downgrade, TTFT models learned online. */
    public static ZeroLayerPolicy ttft() {
        return ttft(true);
    }

    /** Issue #31's policy, with or without the capacity-downgrade tier rule (the ablation shows the rule's own gain). */
    public static ZeroLayerPolicy ttft(boolean downgrade) {
        Scoring s = TTFT_SCORING;
        Scoring scoring = downgrade ? s : new Scoring(s.filters(), s.weights(), s.picker(), s.stickyMaxLoad(),
                s.costReferencePerMillionTokens(), s.ttftSloMs(), s.ttftSloMargin(), s.ttftReferenceMs(),
                CapacityDowngrade.defaults());
        return new ZeroLayerPolicy(downgrade ? "zerolayer-ttft" : "zerolayer-ttft-no-downgrade", scoring,
                new TtftLearning());
    }

    private static Scoring ttftScoring() {
        Map<String, Double> weights = new LinkedHashMap<>();
        weights.put("predicted_ttft", 1.0);
        weights.put("prefix_share", 0.10);
        weights.put("health", 0.10);
        Map<String, Double> slo = new LinkedHashMap<>();
        slo.put("haiku", 1_000.0);
        slo.put("sonnet", 1_500.0);
        slo.put("opus", 2_500.0);
        return new Scoring(List.of("routable_state", "open_breaker", "ttft_slo"), weights, null, null, null, slo, 0.25,
                null, new CapacityDowngrade(true, 0.0, 0.6, false));
    }

    @Override
    public String name() {
        return name;
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
            index.put(node.id(), i);
            if (learning != null) {
                candidates.add(learning.candidate(i, request, view));
                continue;
            }
            RouterView.Health health = view.health(i);
            candidates.add(new NodeCandidate(node.id(), node.member().tier(), node.member().cluster(), health.state(),
                    health.score(), health.load(), health.queueDepth(), node.profile().capacity(), view.inFlight(i),
                    view.breaker(i).open(now), node.prefixBlocksHeld(request.blocks()), health.clusterLoadSpike()));
        }
        DecisionInput input = new DecisionInput(request.contextTokens(), request.complexity(), null, null,
                request.blocks().length);
        RouteDecision decision = engine.decide(input, candidates, policy(view));
        if (decision.fallbackReason() != null) {
            fallbacks.merge(decision.fallbackReason(), 1, Integer::sum);
        }
        List<Integer> ranked = decision.ranked().stream().map(index::get).toList();
        return new Route(decision.tier(), ranked, decision.fallbackReason());
    }

    /** The replay's policy, with this policy's scoring section when it has one. */
    private PolicyDocument policy(RouterView view) {
        if (scoring == null) {
            return view.policy();
        }
        if (policy == null) {
            PolicyDocument d = view.policy();
            policy = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(), d.thresholds(),
                    d.limits(), d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting(), scoring,
                    d.peakShapingTier());
        }
        return policy;
    }

    @Override
    public Object attemptStarted(SimRequest request, int node, RouterView view) {
        return learning == null ? null : learning.attempt(request, node, view);
    }

    @Override
    public void firstByte(Object ticket, double seconds) {
        if (learning != null) {
            learning.firstByte((TtftLearning.Ticket) ticket, seconds);
        }
    }

    @Override
    public void attemptAbandoned(Object ticket) {
        if (learning != null) {
            learning.abandoned((TtftLearning.Ticket) ticket);
        }
    }

    @Override
    public Metrics.PredictionError predictionError() {
        return learning == null ? null : learning.error();
    }

    /** How often each fallback reason fired. */
    public Map<String, Integer> fallbacks() {
        return Map.copyOf(fallbacks);
    }
}
