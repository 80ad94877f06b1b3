package dev.zerolayer.fallback.dryrun;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.routing.decision.DecisionEngine;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Replays decisions' inputs through the tier mapping of routing-core (tier table, pin, high complexity) under the
 * active and a proposed policy, and counts how many would land on another tier, per {@code from->to} pair. Rules that
 * depend on the live fleet (cluster health, peak load, spikes) are not replayed.
 */
public final class DryRun {

    private DryRun() {
    }

    /** The outcome: inputs replayed, how many change tier, per pair, and pins to tiers the proposal drops. */
    public record Report(int replayed, int changed, Map<String, Integer> transitions, int pinsToUnknownTier) {
    }

    public static Report replay(List<ReplayInput> inputs, PolicyDocument active, PolicyDocument proposed) {
        Set<String> proposedTiers = proposed.tiers().stream().map(TierSpec::name).collect(Collectors.toSet());
        Map<String, Integer> transitions = new TreeMap<>();
        int changed = 0;
        int unknownPins = 0;
        for (ReplayInput input : inputs) {
            String from = DecisionEngine.mapTier(input.toDecisionInput(), active).tier();
            if (input.pinnedTier() != null && !proposedTiers.contains(input.pinnedTier())) {
                unknownPins++;
                continue;
            }
            String to = DecisionEngine.mapTier(input.toDecisionInput(), proposed).tier();
            if (!from.equals(to)) {
                changed++;
                transitions.merge(from + "->" + to, 1, Integer::sum);
            }
        }
        return new Report(inputs.size(), changed, transitions, unknownPins);
    }
}
