package dev.zerolayer.routing.decision;

import java.util.Set;

/**
 * What a node's registration declares beyond its placement and capacity: the LoRA adapters it holds and its cost per
 * million tokens ({@code NaN} when it declares none).
 */
public record NodeTraits(Set<String> adapters, double costPerMillionTokens) {

    public static final NodeTraits NONE = new NodeTraits(Set.of(), Double.NaN);

    public NodeTraits {
        adapters = adapters == null ? Set.of() : Set.copyOf(adapters);
    }
}
