package dev.zerolayer.routing.decision;

import java.util.List;

/**
 * Orders one cluster's scored candidates: the first eligible one serves, the eligible ones after it are the bypass
 * order, excluded ones come last. Registered in {@link DecisionPlugins}; the policy's {@code scoring.picker} names it.
 */
public interface Picker {

    String name();

    /** Sorts {@code scored} in place. */
    void order(List<ScoredCandidate> scored);
}
