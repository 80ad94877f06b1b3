package dev.zerolayer.routing.complexity;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A complexity score in [0,1] with its explanation: the model version, every feature's value (in feature order), the
 * features that moved the logit most (largest |value × weight| first), the logistic score before rules, and the rules
 * that changed it.
 */
public record ComplexityScore(
        double score,
        double modelScore,
        String modelVersion,
        Map<String, Double> features,
        List<Contribution> drivers,
        List<String> rules) {

    public ComplexityScore {
        features = Collections.unmodifiableMap(new LinkedHashMap<>(features));
        drivers = List.copyOf(drivers);
        rules = List.copyOf(rules);
    }

    /** The ids of the top {@code n} drivers. */
    public List<String> topDrivers(int n) {
        return drivers.stream().limit(n).map(Contribution::feature).toList();
    }
}
