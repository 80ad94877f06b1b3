package dev.zerolayer.contracts.fallback;

import java.util.List;

/** A model tier: its name, the model aliases clients may ask for, and its clusters in order of preference. */
public record TierSpec(String name, List<String> modelAliases, List<String> clusters) {

    public TierSpec {
        modelAliases = modelAliases == null ? List.of() : List.copyOf(modelAliases);
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }
}
