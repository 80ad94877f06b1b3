package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierRule;
import dev.zerolayer.contracts.fallback.TierSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The baselines' tier: SPEC rules 2 and 3 of the default policy and nothing load- or health-dependent — the tier
 * table's first row the request fits (else the last tier), one tier lower when complexity is above the high mark.
 * The baselines then balance over every node of that tier, standby included, as one model group.
 */
public final class TierChoice {

    private TierChoice() {
    }

    public static String of(PolicyDocument policy, int tokens, double complexity) {
        List<String> order = policy.tiers().stream().map(TierSpec::name).toList();
        String tier = order.get(order.size() - 1);
        for (TierRule rule : policy.tierTable()) {
            if (tokens <= rule.maxTokens() && complexity <= rule.maxComplexity()) {
                tier = rule.tier();
                break;
            }
        }
        if (complexity > policy.thresholds().highComplexity()) {
            int index = order.indexOf(tier);
            if (index > 0) {
                tier = order.get(index - 1);
            }
        }
        return tier;
    }

    /** The live nodes of a tier in fleet order (liveness: not reported DOWN). */
    static List<Integer> pool(RouterView view, String tier) {
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < view.size(); i++) {
            if (view.nodes().get(i).member().tier().equals(tier) && view.alive(i)) {
                pool.add(i);
            }
        }
        return pool;
    }
}
