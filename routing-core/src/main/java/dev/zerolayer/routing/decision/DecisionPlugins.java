package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.routing.decision.plugins.AdapterAffinityScorer;
import dev.zerolayer.routing.decision.plugins.CostScorer;
import dev.zerolayer.routing.decision.plugins.HealthScorer;
import dev.zerolayer.routing.decision.plugins.HighestScorePicker;
import dev.zerolayer.routing.decision.plugins.LoadScorer;
import dev.zerolayer.routing.decision.plugins.OpenBreakerFilter;
import dev.zerolayer.routing.decision.plugins.ProtocolFilter;
import dev.zerolayer.routing.decision.plugins.PredictedTtftScorer;
import dev.zerolayer.routing.decision.plugins.PrefixShareScorer;
import dev.zerolayer.routing.decision.plugins.QueueScorer;
import dev.zerolayer.routing.decision.plugins.RoutableStateFilter;
import dev.zerolayer.routing.decision.plugins.StickyScorer;
import dev.zerolayer.routing.decision.plugins.TtftSloFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The filters, scorers and pickers a policy's {@code scoring} section can name, by name; {@link #builtIn()} holds
 * routing-core's own, {@link #with} adds one. A policy's pipeline is resolved once per scoring section and kept.
 */
public final class DecisionPlugins {

    private final Map<String, NodeFilter> filters;
    private final List<String> required;
    private final Map<String, NodeScorer> scorers;
    private final Map<String, Picker> pickers;
    private final Map<Scoring, NodePipeline> pipelines = new ConcurrentHashMap<>();
    private volatile NodePipeline last;

    private DecisionPlugins(Map<String, NodeFilter> filters, List<String> required, Map<String, NodeScorer> scorers,
            Map<String, Picker> pickers) {
        this.filters = Collections.unmodifiableMap(new LinkedHashMap<>(filters));
        this.required = List.copyOf(required);
        this.scorers = Collections.unmodifiableMap(new LinkedHashMap<>(scorers));
        this.pickers = Collections.unmodifiableMap(new LinkedHashMap<>(pickers));
    }

    /**
     * routing-core's plugins: the protocol filter (always run), SPEC rule 8's filters and five terms, adapter affinity
     * and cost, the TTFT SLO filter and predicted-TTFT scorer, the score picker.
     */
    public static DecisionPlugins builtIn() {
        return new DecisionPlugins(Map.of(), List.of(), Map.of(), Map.of())
                .withRequired(new ProtocolFilter())
                .with(new RoutableStateFilter()).with(new OpenBreakerFilter()).with(new TtftSloFilter())
                .with(new PrefixShareScorer()).with(new LoadScorer()).with(new QueueScorer())
                .with(new HealthScorer()).with(new StickyScorer())
                .with(new AdapterAffinityScorer()).with(new CostScorer()).with(new PredictedTtftScorer())
                .with(new HighestScorePicker());
    }

    /** These plugins and one more filter (replacing one of the same name). */
    public DecisionPlugins with(NodeFilter filter) {
        Map<String, NodeFilter> more = new LinkedHashMap<>(filters);
        more.put(filter.name(), filter);
        return new DecisionPlugins(more, required, scorers, pickers);
    }

    /**
     * These plugins and one more admission filter: it runs in every pipeline whatever the policy names, and a node it
     * excludes is left out of the request's fleet (cluster health and tier rules included).
     */
    public DecisionPlugins withRequired(NodeFilter filter) {
        List<String> always = new ArrayList<>(required);
        always.remove(filter.name());
        always.add(filter.name());
        return with(filter).requiring(always);
    }

    private DecisionPlugins requiring(List<String> always) {
        return new DecisionPlugins(filters, always, scorers, pickers);
    }

    /** These plugins and one more scorer (replacing one of the same name). */
    public DecisionPlugins with(NodeScorer scorer) {
        Map<String, NodeScorer> more = new LinkedHashMap<>(scorers);
        more.put(scorer.name(), scorer);
        return new DecisionPlugins(filters, required, more, pickers);
    }

    /** These plugins and one more picker (replacing one of the same name). */
    public DecisionPlugins with(Picker picker) {
        Map<String, Picker> more = new LinkedHashMap<>(pickers);
        more.put(picker.name(), picker);
        return new DecisionPlugins(filters, required, scorers, more);
    }

    public Set<String> filterNames() {
        return filters.keySet();
    }

    public Set<String> scorerNames() {
        return scorers.keySet();
    }

    public Set<String> pickerNames() {
        return pickers.keySet();
    }

    /** What is wrong with a scoring section for these plugins (unknown names, bad weights or parameters); empty if none. */
    public List<String> problems(Scoring scoring) {
        List<String> problems = new ArrayList<>();
        for (String filter : scoring.filters()) {
            if (!filters.containsKey(filter)) {
                problems.add("scoring.filters: unknown filter '" + filter + "' (known: " + filters.keySet() + ")");
            }
        }
        boolean anyWeight = false;
        for (Map.Entry<String, Double> weight : scoring.weights().entrySet()) {
            if (!scorers.containsKey(weight.getKey())) {
                problems.add("scoring.weights: unknown scorer '" + weight.getKey() + "' (known: " + scorers.keySet()
                        + ")");
            }
            Double value = weight.getValue();
            if (value == null || !Double.isFinite(value) || value < 0) {
                problems.add("scoring.weights." + weight.getKey() + " must be a number >= 0, was " + value);
            } else if (value > 0) {
                anyWeight = true;
            }
        }
        if (!anyWeight) {
            problems.add("scoring.weights: at least one scorer needs a weight above 0");
        }
        if (!pickers.containsKey(scoring.picker())) {
            problems.add("scoring.picker: unknown picker '" + scoring.picker() + "' (known: " + pickers.keySet() + ")");
        }
        if (!(scoring.stickyMaxLoad() > 0 && scoring.stickyMaxLoad() <= 1)) {
            problems.add("scoring.stickyMaxLoad must be in (0,1], was " + scoring.stickyMaxLoad());
        }
        if (!(scoring.costReferencePerMillionTokens() > 0) || scoring.costReferencePerMillionTokens().isInfinite()) {
            problems.add("scoring.costReferencePerMillionTokens must be above 0, was "
                    + scoring.costReferencePerMillionTokens());
        }
        if (!(scoring.ttftSloMargin() >= 0) || scoring.ttftSloMargin() > 100) {
            problems.add("scoring.ttftSloMargin must be in [0,100], was " + scoring.ttftSloMargin());
        }
        if (!(scoring.ttftReferenceMs() > 0) || scoring.ttftReferenceMs().isInfinite()) {
            problems.add("scoring.ttftReferenceMs must be above 0, was " + scoring.ttftReferenceMs());
        }
        for (Map.Entry<String, Double> slo : scoring.ttftSloMs().entrySet()) {
            Double value = slo.getValue();
            if (value == null || !(value > 0) || value.isInfinite()) {
                problems.add("scoring.ttftSloMs." + slo.getKey() + " must be above 0 ms, was " + value);
            }
        }
        double low = scoring.capacityDowngrade().complexityLow();
        double high = scoring.capacityDowngrade().complexityHigh();
        if (!(low >= 0 && low <= high && high <= 1)) {
            problems.add("scoring.capacityDowngrade: complexity band must satisfy 0 <= complexityLow <= complexityHigh"
                    + " <= 1, was [" + low + ", " + high + "]");
        }
        return problems;
    }

    /**
     * The pipeline for a scoring section: the required filters as admission, then its filters in its order, its weighted scorers in registration order, its
     * picker. Names these plugins do not have are left out (a policy service validates them with {@link #problems});
     * an unknown picker falls back to the highest score.
     */
    public NodePipeline pipeline(Scoring scoring) {
        NodePipeline cached = last;
        if (cached != null && cached.scoring() == scoring) {
            return cached;
        }
        NodePipeline pipeline = pipelines.computeIfAbsent(scoring, this::resolve);
        last = pipeline;
        return pipeline;
    }

    private NodePipeline resolve(Scoring scoring) {
        List<NodeFilter> admission = new ArrayList<>();
        for (String name : required) {
            admission.add(filters.get(name));
        }
        List<NodeFilter> chosenFilters = new ArrayList<>();
        for (String name : scoring.filters()) {
            NodeFilter filter = filters.get(name);
            if (filter != null && !required.contains(name)) {
                chosenFilters.add(filter);
            }
        }
        List<NodeScorer> chosenScorers = new ArrayList<>();
        for (NodeScorer scorer : scorers.values()) {
            if (scoring.weight(scorer.name()) > 0) {
                chosenScorers.add(scorer);
            }
        }
        Picker picker = pickers.getOrDefault(scoring.picker(), pickers.get(Scoring.DEFAULT_PICKER));
        return new NodePipeline(scoring, admission, chosenFilters, chosenScorers, picker);
    }
}
