package dev.zerolayer.contracts.fallback;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the decision weighs a cluster's nodes (SPEC rule 8): the filters that exclude nodes, in order; each scorer's
 * weight (a scorer without a weight, or with weight 0, does not run); the picker that orders them; and the plugins'
 * parameters. Plugin names are routing-core's (docs/extending.md); a missing field takes its default.
 *
 * @param stickyMaxLoad                  the sticky node keeps its bonus only while its load is below this
 * @param costReferencePerMillionTokens  the node cost at which the cost scorer gives 0.5 (cheaper: more)
 */
public record Scoring(
        List<String> filters,
        Map<String, Double> weights,
        String picker,
        Double stickyMaxLoad,
        Double costReferencePerMillionTokens) {

    public static final List<String> DEFAULT_FILTERS = List.of("routable_state", "open_breaker");
    public static final String DEFAULT_PICKER = "highest_score";
    public static final double DEFAULT_STICKY_MAX_LOAD = 0.90;
    public static final double DEFAULT_COST_REFERENCE = 1.0;

    public Scoring {
        filters = filters == null ? DEFAULT_FILTERS : List.copyOf(filters);
        weights = weights == null ? defaultWeights() : Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        picker = picker == null ? DEFAULT_PICKER : picker;
        stickyMaxLoad = stickyMaxLoad == null ? DEFAULT_STICKY_MAX_LOAD : stickyMaxLoad;
        costReferencePerMillionTokens = costReferencePerMillionTokens == null ? DEFAULT_COST_REFERENCE
                : costReferencePerMillionTokens;
    }

    /** SPEC rule 8's weights: prefix share 0.35, load 0.25, queue 0.15, health 0.25, sticky bonus 0.10. */
    public static Scoring defaults() {
        return new Scoring(null, null, null, null, null);
    }

    private static Map<String, Double> defaultWeights() {
        Map<String, Double> weights = new LinkedHashMap<>();
        weights.put("prefix_share", 0.35);
        weights.put("load", 0.25);
        weights.put("queue", 0.15);
        weights.put("health", 0.25);
        weights.put("sticky", 0.10);
        return Collections.unmodifiableMap(weights);
    }

    /** A scorer's weight; 0 when it has none. */
    public double weight(String scorer) {
        Double weight = weights.get(scorer);
        return weight == null ? 0.0 : weight;
    }
}
