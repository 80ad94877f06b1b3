package dev.zerolayer.routing.decision;

/**
 * Weights of a node's score inside its cluster (SPEC rule 8): the share of the prompt's leading blocks it holds, load
 * headroom, queue, health, and a bonus for the session's sticky node while that node is HEALTHY and not overloaded.
 */
public record NodeScoring(double prefix, double load, double queue, double health, double sticky,
        double stickyMaxLoad) {

    public static NodeScoring defaults() {
        return new NodeScoring(0.35, 0.25, 0.15, 0.25, 0.10, 0.90);
    }
}
