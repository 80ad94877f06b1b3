package dev.zerolayer.router.models;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The models served: every model alias of every tier of the latest fallback policy in the view, in the policy's order
 * (an alias named by two tiers is listed once, under the first; a tier without a name is skipped); the built-in
 * {@link PolicyDocument#defaults()} until a policy has arrived.
 */
public class ModelCatalogue {

    private final CompactedView<FallbackPolicy> policies;

    public ModelCatalogue(CompactedView<FallbackPolicy> policies) {
        this.policies = policies;
    }

    public List<ServedModel> models() {
        FallbackPolicy policy = policies.get(FallbackPolicy.KEY).orElse(null);
        PolicyDocument document = policy == null ? PolicyDocument.defaults() : policy.document();
        Instant since = policy == null ? Instant.EPOCH : policy.occurredAt();
        Set<String> listed = new LinkedHashSet<>();
        List<ServedModel> models = new ArrayList<>();
        for (TierSpec tier : document.tiers()) {
            if (tier.name() == null || tier.name().isBlank()) {
                continue;
            }
            for (String alias : tier.modelAliases()) {
                if (alias != null && !alias.isBlank() && listed.add(alias)) {
                    models.add(new ServedModel(alias, displayName(tier.name(), alias), tier.name(), since));
                }
            }
        }
        return models;
    }

    private static String displayName(String tier, String alias) {
        String name = tier.substring(0, 1).toUpperCase(Locale.ROOT) + tier.substring(1);
        return name + " tier (" + alias + ")";
    }

    /** A model alias clients may ask for, the tier serving it, and when its policy was published (epoch: built in). */
    public record ServedModel(String id, String displayName, String tier, Instant since) {
    }
}
