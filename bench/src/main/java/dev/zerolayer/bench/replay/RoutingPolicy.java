package dev.zerolayer.bench.replay;

import java.util.List;

/**
 * A routing policy under test: for a request and the router's view, the tier and the nodes to try in order (a
 * baseline names one node; an empty list means no node can serve), and whether a failure before the first byte moves
 * on to the next node.
 */
public interface RoutingPolicy {

    /** The decision: the tier decided, nodes to try (indices into the fleet), and a fallback reason if any. */
    record Route(String tier, List<Integer> ranked, String fallbackReason) {

        public Route {
            ranked = List.copyOf(ranked);
        }
    }

    String name();

    Route route(SimRequest request, RouterView view);

    /** Bypass before the first byte to the next ranked node (only ZeroLayer's dispatcher does it). */
    default boolean bypass() {
        return false;
    }

    /** Whether calls go through the router's per-node circuit breakers. */
    default boolean breakers() {
        return false;
    }

    /** An attempt is about to be sent to {@code node} (its in-flight count not yet raised); returns what to learn by. */
    default Object attemptStarted(SimRequest request, int node, RouterView view) {
        return null;
    }

    /** The attempt's first byte came {@code seconds} after it was sent. */
    default void firstByte(Object ticket, double seconds) {
    }

    /** The attempt ended before its first byte (timeout, error, crash). */
    default void attemptAbandoned(Object ticket) {
    }

    /** How far the policy's TTFT predictions were from the observed first bytes; null for a policy that predicts none. */
    default Metrics.PredictionError predictionError() {
        return null;
    }
}
