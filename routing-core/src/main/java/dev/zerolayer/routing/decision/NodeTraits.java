package dev.zerolayer.routing.decision;

import java.util.Set;

/**
 * What a node's registration declares beyond its placement and capacity: the LoRA adapters it holds, its cost per
 * million tokens ({@code NaN} when it declares none) and the API it speaks (null when unknown).
 */
public record NodeTraits(Set<String> adapters, double costPerMillionTokens, String protocol) {

    public static final NodeTraits NONE = new NodeTraits(Set.of(), Double.NaN, null);

    public NodeTraits {
        adapters = adapters == null ? Set.of() : Set.copyOf(adapters);
    }

    /** A node whose API is not known. */
    public NodeTraits(Set<String> adapters, double costPerMillionTokens) {
        this(adapters, costPerMillionTokens, null);
    }
}
