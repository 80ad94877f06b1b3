package dev.zerolayer.routing.thresholds;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thresholds that bring a prompt set's tier mix closest to a target: row by row down the tier table, the threshold
 * whose row tier's share is nearest its target (later rows never below earlier ones), tried at midpoints between the
 * set's distinct scores (at most {@value #MAX_CANDIDATES}), 0 and 1. Token limits stay, so a target the prompts' sizes
 * forbid is approached, not met; the mix reached is reported with the thresholds.
 */
public final class ThresholdSearch {

    static final int MAX_CANDIDATES = 400;

    /** The thresholds found, the mix they give on the set, and the largest |share − target| over the tiers. */
    public record Result(Map<String, Double> thresholds, Map<String, Double> mix, double maxDeviation) {
    }

    private ThresholdSearch() {
    }

    public static Result search(PolicyDocument policy, int[] tokens, double[] scores, Map<String, Double> target) {
        double[] candidates = candidates(scores);
        Map<String, Double> chosen = new LinkedHashMap<>(TierThresholds.thresholds(policy));
        List<String> adjustable = new ArrayList<>(chosen.keySet());
        List<TierRule> rows = policy.tierTable();
        double lower = 0;
        for (int r = 0; r < rows.size() - 1; r++) {
            String tier = rows.get(r).tier();
            if (!adjustable.contains(tier)) {
                continue;
            }
            double goal = target.getOrDefault(tier, 0.0);
            Map<String, Double> best = null;
            double bestError = Double.POSITIVE_INFINITY;
            for (double candidate : candidates) {
                if (candidate < lower) {
                    continue;
                }
                Map<String, Double> trial = new LinkedHashMap<>(chosen);
                trial.put(tier, candidate);
                for (String later : adjustable.subList(adjustable.indexOf(tier) + 1, adjustable.size())) {
                    trial.put(later, Math.max(trial.get(later), candidate));
                }
                double share = TierMix.of(TierThresholds.withThresholds(policy, trial), tokens, scores).get(tier);
                double error = Math.abs(share - goal);
                if (error < bestError - 1e-12) {
                    bestError = error;
                    best = trial;
                }
            }
            if (best != null) {
                chosen = best;
                lower = chosen.get(tier);
            }
        }
        Map<String, Double> rounded = new LinkedHashMap<>();
        chosen.forEach((tier, value) -> rounded.put(tier, Math.round(value * 10_000) / 10_000.0));
        Map<String, Double> mix = TierMix.of(TierThresholds.withThresholds(policy, rounded), tokens, scores);
        double deviation = 0;
        for (Map.Entry<String, Double> share : mix.entrySet()) {
            deviation = Math.max(deviation, Math.abs(share.getValue() - target.getOrDefault(share.getKey(), 0.0)));
        }
        return new Result(rounded, mix, deviation);
    }

    /** 0, 1 and the midpoints between consecutive distinct scores (thinned evenly when there are too many). */
    static double[] candidates(double[] scores) {
        double[] distinct = Arrays.stream(scores).sorted().distinct().toArray();
        List<Double> midpoints = new ArrayList<>();
        for (int i = 0; i + 1 < distinct.length; i++) {
            midpoints.add((distinct[i] + distinct[i + 1]) / 2);
        }
        double step = Math.max(1.0, (double) midpoints.size() / MAX_CANDIDATES);
        List<Double> chosen = new ArrayList<>();
        chosen.add(0.0);
        for (double i = 0; i < midpoints.size(); i += step) {
            chosen.add(midpoints.get((int) i));
        }
        chosen.add(1.0);
        return chosen.stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
    }
}
