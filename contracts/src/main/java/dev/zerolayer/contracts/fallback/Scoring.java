package dev.zerolayer.contracts.fallback;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the decision weighs a cluster's nodes (SPEC rule 8): the filters that exclude nodes, in order; each scorer's
 * weight (a scorer without a weight, or with weight 0, does not run); the picker that orders them; and the plugins'
 * parameters. Plugin names are routing-core's (docs/extending.md); a missing field takes its default (a record written
 * before the TTFT fields existed decodes without them).
 *
 * @param stickyMaxLoad                  the sticky node keeps its bonus only while its load is below this
 * @param costReferencePerMillionTokens  the node cost at which the cost scorer gives 0.5 (cheaper: more)
 * @param ttftSloMs                      per tier, the time to first token (ms) its requests should get; a tier without
 *                                       one has no SLO (the {@code ttft_slo} filter and capacity downgrade skip it)
 * @param ttftSloMargin                  a node misses the SLO when predicted above SLO x (1 + margin)
 * @param ttftReferenceMs                the predicted TTFT at which {@code predicted_ttft} gives 0.5 in a tier
 *                                       without an SLO (in a tier with one: the SLO)
 * @param capacityDowngrade              the capacity-downgrade tier rule's switch and complexity band
 */
public record Scoring(
        List<String> filters,
        Map<String, Double> weights,
        String picker,
        Double stickyMaxLoad,
        Double costReferencePerMillionTokens,
        @JacksonInject(value = "scoring.ttftSloMs", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Map<String, Double> ttftSloMs,
        @JacksonInject(value = "scoring.ttftSloMargin", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Double ttftSloMargin,
        @JacksonInject(value = "scoring.ttftReferenceMs", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        Double ttftReferenceMs,
        @JacksonInject(value = "scoring.capacityDowngrade", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        CapacityDowngrade capacityDowngrade) {

    public static final List<String> DEFAULT_FILTERS = List.of("routable_state", "open_breaker");
    public static final String DEFAULT_PICKER = "highest_score";
    public static final double DEFAULT_STICKY_MAX_LOAD = 0.90;
    public static final double DEFAULT_COST_REFERENCE = 1.0;
    public static final double DEFAULT_TTFT_SLO_MARGIN = 0.25;
    public static final double DEFAULT_TTFT_REFERENCE_MS = 1000.0;

    public Scoring {
        filters = filters == null ? DEFAULT_FILTERS : List.copyOf(filters);
        weights = weights == null ? defaultWeights() : Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        picker = picker == null ? DEFAULT_PICKER : picker;
        stickyMaxLoad = stickyMaxLoad == null ? DEFAULT_STICKY_MAX_LOAD : stickyMaxLoad;
        costReferencePerMillionTokens = costReferencePerMillionTokens == null ? DEFAULT_COST_REFERENCE
                : costReferencePerMillionTokens;
        ttftSloMs = ttftSloMs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(ttftSloMs));
        ttftSloMargin = ttftSloMargin == null ? DEFAULT_TTFT_SLO_MARGIN : ttftSloMargin;
        ttftReferenceMs = ttftReferenceMs == null ? DEFAULT_TTFT_REFERENCE_MS : ttftReferenceMs;
        capacityDowngrade = capacityDowngrade == null ? CapacityDowngrade.defaults() : capacityDowngrade;
    }

    /** A scoring section without TTFT SLOs or capacity downgrade (as before they existed). */
    public Scoring(List<String> filters, Map<String, Double> weights, String picker, Double stickyMaxLoad,
            Double costReferencePerMillionTokens) {
        this(filters, weights, picker, stickyMaxLoad, costReferencePerMillionTokens, null, null, null, null);
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

    /** The tier's TTFT SLO in ms; NaN when the policy sets none. */
    public double ttftSlo(String tier) {
        Double slo = tier == null ? null : ttftSloMs.get(tier);
        return slo == null ? Double.NaN : slo;
    }

    /** A scorer's weight; 0 when it has none. */
    public double weight(String scorer) {
        Double weight = weights.get(scorer);
        return weight == null ? 0.0 : weight;
    }
}
