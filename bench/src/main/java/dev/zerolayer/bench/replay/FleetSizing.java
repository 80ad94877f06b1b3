package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sizing rule, fixed before any run: per tier, the fewest primary nodes (at least {@value #MIN_NODES}) of the
 * simulator's profile for that tier such that the trace's mean offered work — each request of the trace (spike
 * copies excluded) at its static tier (SPEC rules 2–3, {@link TierChoice}) costing a whole-node prefill of its prompt
 * without cache plus its decode at a full batch's per-token time divided by the batch size — is at most
 * {@value #TARGET} of the tier's capacity; the sonnet standby node comes on top.
 */
public final class FleetSizing {

    static final double TARGET = 0.60;
    static final int MIN_NODES = 2;

    /** Per tier: requests, mean offered work in node-seconds per second, nodes chosen and resulting load share. */
    public record Tier(String tier, int requests, double offeredNodeSeconds, int nodes, double load) {
    }

    /** The sizing's result: the fleet and each tier's numbers. */
    public record Sizing(FleetSpec fleet, List<Tier> tiers, double horizon) {

        public String describe() {
            StringBuilder s = new StringBuilder();
            for (Tier t : tiers) {
                s.append(String.format(Locale.ROOT, "%s: %d requests, offered %.2f node-s/s -> %d nodes (%.0f %%); ",
                        t.tier(), t.requests(), t.offeredNodeSeconds(), t.nodes(), 100 * t.load()));
            }
            return s.append("+ 1 sonnet standby").toString();
        }
    }

    private FleetSizing() {
    }

    /** The work one request puts on a node of {@code profile}, in node-seconds. */
    static double work(NodeProfile profile, int contextTokens, int generatedTokens) {
        double decode = generatedTokens * profile.interTokenSeconds(profile.capacity()) / profile.capacity();
        return profile.prefillSeconds(contextTokens) + decode;
    }

    public static Sizing size(List<SimRequest> requests, PolicyDocument policy) {
        Map<String, NodeProfile> profiles = Map.of("opus", NodeProfile.A100_80G_X8, "sonnet", NodeProfile.A100_40G_X4,
                "haiku", NodeProfile.L4_X2);
        Map<String, double[]> work = new LinkedHashMap<>();
        for (String tier : List.of("opus", "sonnet", "haiku")) {
            work.put(tier, new double[2]);
        }
        double horizon = 0;
        for (SimRequest r : requests) {
            if (r.spikeCopy()) {
                continue;
            }
            horizon = Math.max(horizon, r.arrival());
            String tier = TierChoice.of(policy, r.contextTokens(), r.complexity());
            double[] w = work.get(tier);
            w[0]++;
            w[1] += work(profiles.get(tier), r.contextTokens(), r.generatedTokens());
        }
        double seconds = Math.max(1.0, horizon);
        List<Tier> tiers = new java.util.ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Map.Entry<String, double[]> e : work.entrySet()) {
            double offered = e.getValue()[1] / seconds;
            int nodes = Math.max(MIN_NODES, (int) Math.ceil(offered / TARGET - 1e-9));
            counts.put(e.getKey(), nodes);
            tiers.add(new Tier(e.getKey(), (int) e.getValue()[0], offered, nodes, offered / nodes));
        }
        return new Sizing(FleetSpec.of(counts.get("opus"), counts.get("sonnet"), counts.get("haiku")), List.copyOf(tiers),
                seconds);
    }
}
