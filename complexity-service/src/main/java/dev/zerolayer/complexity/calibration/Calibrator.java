package dev.zerolayer.complexity.calibration;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.routing.thresholds.TierThresholds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Proposes tier-table thresholds that keep fallbacks at or below a target: for each threshold between tier L and the
 * next tier U, the run of bands right above it whose U-bound requests mostly ended on L (or right below it whose
 * L-bound requests ended on U) at a rate above the target moves to the tier they fell to; the predicted rate assumes
 * those requests are then served there without falling back. Pinned requests and high-complexity fallbacks (a rule,
 * not a threshold) are shown but never move a threshold.
 */
public final class Calibrator {

    private static final double EPS = 1e-9;

    /** Proposal states. */
    public static final String INSUFFICIENT_DATA = "insufficient_data";
    public static final String WITHIN_TARGET = "within_target";
    public static final String PROPOSED = "proposed";
    public static final String NO_THRESHOLD_CHANGE = "no_threshold_change";

    /** Settings of a calibration. */
    public record Settings(double targetFallbackRate, long minDecisions, long minBandDecisions) {
    }

    /** One band's observations. */
    public record Band(double from, double to, long decisions, long fallbacks, double fallbackRate,
            Map<String, Long> servedTiers, Map<String, Long> tableTiers, Map<String, Long> fallbackReasons) {
    }

    /** One threshold move. */
    public record Change(String tier, double from, double to, String direction, long decisionsMoved,
            long fallbacksAvoided, String towardTier) {
    }

    /** The proposal: its status, current and proposed thresholds, the moves, and the fallback rate expected after. */
    public record Proposal(String status, Map<String, Double> current, Map<String, Double> proposed,
            List<Change> changes, double fallbackRate, double predictedFallbackRate, String note) {

        public boolean pending() {
            return PROPOSED.equals(status);
        }
    }

    /** Everything calibration knows: totals, tier mix, bands and the proposal. */
    public record Report(long decisions, long fallbacks, double fallbackRate, double targetFallbackRate,
            Map<String, Double> tierMix, Map<String, Long> fallbackReasons, List<Band> bands, Proposal proposal) {
    }

    private Calibrator() {
    }

    public static Report calibrate(BandCounts[] counts, PolicyDocument policy, Settings settings) {
        int n = counts.length;
        long decisions = 0;
        long fallbacks = 0;
        Map<String, Long> served = new TreeMap<>();
        Map<String, Long> reasons = new TreeMap<>();
        List<Band> bands = new ArrayList<>(n);
        for (int b = 0; b < n; b++) {
            BandCounts band = counts[b];
            decisions += band.decisions();
            fallbacks += band.fallbacks();
            band.served.forEach((k, v) -> served.merge(k, v, Long::sum));
            band.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
            bands.add(new Band(edge(b, n), edge(b + 1, n), band.decisions(), band.fallbacks(),
                    rate(band.fallbacks(), band.decisions()), new TreeMap<>(band.served),
                    new TreeMap<>(band.table), new TreeMap<>(band.reasons)));
        }
        Map<String, Double> mix = new LinkedHashMap<>();
        long total = decisions;
        served.forEach((tier, count) -> mix.put(tier, rate(count, total)));
        double overall = rate(fallbacks, decisions);
        Proposal proposal = propose(counts, policy, settings, decisions, fallbacks, reasons);
        return new Report(decisions, fallbacks, overall, settings.targetFallbackRate(), mix, reasons, bands, proposal);
    }

    private static Proposal propose(BandCounts[] counts, PolicyDocument policy, Settings settings, long decisions,
            long fallbacks, Map<String, Long> reasons) {
        Map<String, Double> current = TierThresholds.thresholds(policy);
        double overall = rate(fallbacks, decisions);
        if (decisions < settings.minDecisions()) {
            return new Proposal(INSUFFICIENT_DATA, current, current, List.of(), overall, overall,
                    decisions + " routed decisions in the window; at least " + settings.minDecisions() + " needed");
        }
        if (overall <= settings.targetFallbackRate()) {
            return new Proposal(WITHIN_TARGET, current, current, List.of(), overall, overall, null);
        }
        List<TierRule> rows = policy.tierTable();
        Map<String, Double> proposed = new LinkedHashMap<>(current);
        List<Change> changes = new ArrayList<>();
        long avoidedTotal = 0;
        double previous = 0;
        for (int r = 0; r < rows.size() - 1; r++) {
            String lower = rows.get(r).tier();
            String upper = rows.get(r + 1).tier();
            double threshold = rows.get(r).maxComplexity();
            double next = r + 1 < rows.size() - 1 ? rows.get(r + 1).maxComplexity() : 1.0;
            Change raise = raise(counts, settings, lower, upper, threshold, next);
            Change drop = lower(counts, settings, lower, upper, threshold, previous);
            Change best = raise == null ? drop : drop == null ? raise
                    : raise.fallbacksAvoided() >= drop.fallbacksAvoided() ? raise : drop;
            if (best != null) {
                changes.add(best);
                proposed.put(lower, best.to());
                avoidedTotal += best.fallbacksAvoided();
            }
            previous = proposed.getOrDefault(lower, threshold);
        }
        double predicted = rate(fallbacks - avoidedTotal, decisions);
        if (changes.isEmpty()) {
            return new Proposal(NO_THRESHOLD_CHANGE, current, current, List.of(), overall, overall,
                    "fallbacks are not concentrated next to a threshold (or are pinned or high-complexity); "
                            + "reasons: " + reasons);
        }
        String note = predicted > settings.targetFallbackRate()
                ? "moving thresholds alone is not expected to reach the target; reasons: " + reasons : null;
        return new Proposal(PROPOSED, current, proposed, changes, overall, predicted, note);
    }

    /** Bands right above the threshold whose upper-tier requests fell to the lower tier above the target rate. */
    private static Change raise(BandCounts[] counts, Settings settings, String lower, String upper, double threshold,
            double ceiling) {
        int n = counts.length;
        double to = threshold;
        long moved = 0;
        long avoided = 0;
        for (int b = (int) Math.ceil(threshold * n - EPS); b < n && edge(b + 1, n) <= ceiling + EPS; b++) {
            long bound = counts[b].unpinned(upper);
            long fell = counts[b].moved(upper, lower);
            if (bound < settings.minBandDecisions() || rate(fell, bound) <= settings.targetFallbackRate()) {
                break;
            }
            to = edge(b + 1, n);
            moved += bound;
            avoided += fell;
        }
        return moved == 0 ? null : new Change(lower, threshold, to, "raise", moved, avoided, lower);
    }

    /** Bands right below the threshold whose lower-tier requests went up to the upper tier above the target rate. */
    private static Change lower(BandCounts[] counts, Settings settings, String lower, String upper, double threshold,
            double floor) {
        int n = counts.length;
        double to = threshold;
        long moved = 0;
        long avoided = 0;
        for (int b = (int) Math.floor(threshold * n + EPS) - 1; b >= 0 && edge(b, n) >= floor - EPS; b--) {
            long bound = counts[b].unpinned(lower);
            long rose = counts[b].moved(lower, upper);
            if (bound < settings.minBandDecisions() || rate(rose, bound) <= settings.targetFallbackRate()) {
                break;
            }
            to = edge(b, n);
            moved += bound;
            avoided += rose;
        }
        return moved == 0 ? null : new Change(lower, threshold, to, "lower", moved, avoided, upper);
    }

    static double edge(int band, int bands) {
        return Math.round((double) band / bands * 1e6) / 1e6;
    }

    static double rate(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}
